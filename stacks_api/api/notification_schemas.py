"""Marshmallow schemas of Web Push subscriptions and notification preferences."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..service.preferences import CHANNELS, KINDS

KIND = validate.OneOf(KINDS)


class PushKeySchema(Schema):
    public_key = fields.String(
        required=True,
        metadata={"description": "The VAPID application server key: an uncompressed P-256 "
                  "point, base64url (PushManager.subscribe's applicationServerKey)"},
    )  # fmt: skip


class PushKeysSchema(Schema):
    p256dh = fields.String(required=True, validate=validate.Length(min=80, max=120))
    auth = fields.String(required=True, validate=validate.Length(min=16, max=40))


class NewSubscriptionSchema(Schema):
    endpoint = fields.Url(
        required=True,
        schemes={"https", "http"},
        require_tld=False,
        validate=validate.Length(max=1000),
        metadata={"description": "The push service's URL for this browser (https)"},
    )
    keys = fields.Nested(PushKeysSchema, required=True)
    events = fields.List(
        fields.String(validate=KIND),
        validate=validate.Length(min=1, max=len(KINDS)),
        metadata={"description": "The kinds of event pushed to it (default: all; your "
                  "preferences choose too)"},
    )  # fmt: skip


class SubscriptionSchema(Schema):
    id = fields.String(required=True)
    endpoint = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    created_at = fields.Float(required=True)


class SubscriptionMadeSchema(Schema):
    subscription = fields.Nested(SubscriptionSchema, required=True)


class SubscriptionListSchema(Schema):
    subscriptions = fields.List(fields.Nested(SubscriptionSchema), required=True)


class QuietHoursSchema(Schema):
    from_ = fields.String(required=True, data_key="from", attribute="from",
                          validate=validate.Regexp(r"^([01][0-9]|2[0-3]):[0-5][0-9]$"),
                          metadata={"description": "From (a local time, 22:30)"})  # fmt: skip
    to = fields.String(required=True, validate=validate.Regexp(r"^([01][0-9]|2[0-3]):[0-5][0-9]$"),
                       metadata={"description": "To (a local time, 07:00)"})  # fmt: skip
    tz = fields.String(required=True, validate=validate.Length(min=1, max=64),
                       metadata={"description": "The time zone, as Europe/Bucharest"})  # fmt: skip


class PreferencesSchema(Schema):
    events = fields.Dict(
        keys=fields.String(validate=KIND),
        values=fields.List(fields.String(validate=validate.OneOf(CHANNELS))),
        required=True,
        metadata={"description": "For each kind of event, the channels it goes to (push, "
                  "webhook)"},
    )  # fmt: skip
    quiet_hours = fields.Nested(
        QuietHoursSchema,
        required=True,
        allow_none=True,
        metadata={"description": "Nothing is pushed between these times (webhooks still go)"},
    )


class PreferencesChangeSchema(Schema):
    events = fields.Dict(
        keys=fields.String(validate=KIND),
        values=fields.List(fields.String(validate=validate.OneOf(CHANNELS))),
    )
    quiet_hours = fields.Nested(QuietHoursSchema, allow_none=True)
