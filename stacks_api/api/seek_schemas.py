"""Marshmallow schemas of quick pairing: a seek and what it became."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..model.pace import DAYS
from ..variants.fields import Flag, whole
from .schemas import KNOWN_VARIANT

TURN_CLOCKS = (0, 15, 30, 60, 120, 300)  # a few clocks, so that seekers meet


class NewSeekSchema(Schema):
    variant = fields.String(required=True, validate=KNOWN_VARIANT)
    players = whole(required=True, validate=validate.Range(min=2, max=12))
    rated = Flag(load_default=False)
    turn_seconds = whole(
        load_default=0,
        validate=validate.OneOf(TURN_CLOCKS),
        metadata={
            "description": "Each person's time for a turn; 0: no clock. A rated seek "
            "is always clocked: without a clock it gets 60 s a turn."
        },
    )
    days = whole(
        validate=validate.OneOf(DAYS),
        metadata={"description": "A days game: each person has this many days a turn "
                  "(never with a clock): days seeks pair among themselves"},
    )  # fmt: skip
    wait_s = fields.Float(
        load_default=120.0,
        validate=validate.Range(min=5, max=86_400),
        metadata={"description": "How long to wait for a game before the seek expires: up "
                  "to 600 s, or a day for a days seek"},
    )  # fmt: skip


class SeekSchema(Schema):
    id = fields.String(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(["waiting", "paired", "withdrawn", "expired"]),
        metadata={"description": "paired: join `game_id` with your key (and entropy)"},
    )
    variant = fields.String(required=True)
    players = whole(required=True)
    rated = fields.Boolean(required=True)
    turn_seconds = whole(required=True, allow_none=True)
    days = whole(required=True, allow_none=True)
    rating = whole(required=True, metadata={"description": "Your rating the pairing used"})
    since = fields.Float(required=True)
    expires_at = fields.Float(required=True)
    game_id = fields.String(required=True, allow_none=True)
    seat = whole(required=True, allow_none=True)
    unrated = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Paired into a rated game two of whose accounts began 3 "
                  "rated games together in the last 24 hours: pair_limit (it is played "
                  "unrated); null otherwise"},
    )  # fmt: skip
