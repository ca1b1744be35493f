"""Marshmallow schemas of what running the server in public adds: reports and
webhooks (the export is NDJSON, described in its operation)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..service.webhooks import EVENTS
from ..variants.fields import whole

WEBHOOK_EVENTS = fields.List(
    fields.String(validate=validate.OneOf(EVENTS)),
    required=True,
    validate=validate.Length(min=1, max=len(EVENTS)),
    metadata={"description": "The account events to send: " + ", ".join(EVENTS)},
)


class NewReportSchema(Schema):
    reason = fields.String(
        required=True,
        validate=validate.Length(min=1, max=500),
        metadata={"description": "What happened, for the operators."},
    )
    game_id = fields.String(
        validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,32}$"),
        metadata={"description": "The game it happened in, if any."},
    )


class ReportSchema(Schema):
    id = fields.String(required=True)
    player_id = fields.String(required=True)
    game_id = fields.String(allow_none=True, required=True)
    reason = fields.String(required=True)
    created_at = fields.Float(required=True)


class NewWebhookSchema(Schema):
    url = fields.Url(
        required=True,
        schemes={"http", "https"},
        require_tld=False,
        validate=validate.Length(max=2000),
        metadata={"description": "Where to POST: a public http(s) URL."},
    )
    events = WEBHOOK_EVENTS


class WebhookSchema(Schema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    created_at = fields.Float(required=True)
    disabled_at = fields.Float(
        allow_none=True,
        required=True,
        metadata={"description": "Set when a day of failed deliveries disabled it."},
    )
    dropped = whole(
        required=True,
        metadata={"description": "Deliveries dropped unsent, the oldest first, while 1,000 "
                  "waited for this webhook (its receiver failing or too slow)"},
    )  # fmt: skip


class CreatedWebhookSchema(Schema):
    webhook = fields.Nested(WebhookSchema, required=True)
    secret = fields.String(
        required=True,
        metadata={"description": "Signs every delivery (webhook-signature). Shown only once."},
    )


class WebhooksSchema(Schema):
    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


class AttemptSchema(Schema):
    at = fields.Float(required=True)
    status = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The receiver's HTTP status, if it answered"},
    )
    error = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "Why there was no answer, or why not sent"},
    )
    duration_ms = fields.Float(required=True)


class DeliverySchema(Schema):
    id = fields.String(required=True, metadata={"description": "The webhook-id header"})
    event = fields.String(required=True)
    state = fields.String(
        required=True, validate=validate.OneOf(["pending", "delivered", "failed"])
    )
    created_at = fields.Float(required=True)
    next_at = fields.Float(
        allow_none=True,
        required=True,
        metadata={"description": "When a pending delivery is tried next"},
    )
    attempts = fields.List(fields.Nested(AttemptSchema), required=True)


class DeliveriesSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)
