"""Marshmallow schemas of the players resource and of the game record."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from ..model.record import ENDED
from ..variants.fields import FairnessSchema, whole
from .names import shown_name
from .rating_schemas import RATINGS
from .schemas import KNOWN_VARIANT

NAME = fields.String(
    required=True,
    validate=[validate.Length(min=1, max=40), shown_name],
    metadata={"description": "Shown to everyone: no control or bidirectional characters."},
)


def label(**given: Any) -> fields.String:
    """A key's label, as a player names it."""
    return fields.String(
        validate=[validate.Length(min=1, max=40), shown_name],
        metadata={"description": "Your name for the key, e.g. the device that keeps it."},
        **given,
    )


class NewPlayerSchema(Schema):
    name = NAME
    label = label(load_default="first key")


class NewKeySchema(Schema):
    label = label(required=True)


class PlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.Float(required=True)
    closed = fields.Boolean(
        dump_default=False,
        metadata={"description": "Closed by the server's operators: its keys are refused."},
    )
    accepts_challenges = fields.Boolean(
        dump_default=True, metadata={"description": "False: the player takes no challenges"}
    )
    bot = fields.Boolean(
        dump_default=False,
        metadata={"description": "A bot account: a program playing through the API (BOT)."},
    )
    ratings = RATINGS


class PlayerSearchSchema(Schema):
    name = fields.String(
        required=True,
        validate=validate.Length(min=2, max=40),
        metadata={"description": "Part of the name, any case (at least 2 characters)"},
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=50))


class FoundPlayersSchema(Schema):
    players = fields.List(
        fields.Nested(PlayerSchema),
        required=True,
        metadata={"description": "The name itself first, then names that begin with it"},
    )


class MeSchema(PlayerSchema):
    vacation_days = whole(
        required=True,
        metadata={"description": "Whole days in your vacation bank (days games: at most 30, "
                  "about 30 earned a year)"},
    )  # fmt: skip
    turn_count = whole(
        required=True, metadata={"description": "Games that wait for you to act now"}
    )


class WaitingQuerySchema(Schema):
    turn = fields.String(
        required=True,
        validate=validate.OneOf(["mine"]),
        metadata={"description": "mine: the games that wait for you"},
    )


class WaitingGameSchema(Schema):
    id = fields.String(required=True)
    variant = fields.String(required=True)
    seat = whole(required=True)
    version = whole(required=True, metadata={"description": "The version that waits for you"})
    deadline = fields.Float(
        required=True, allow_none=True, metadata={"description": "When your time runs out"}
    )
    days = whole(required=True, allow_none=True, metadata={"description": "Days a turn"})
    rated = fields.Boolean(required=True)
    tournament = fields.Dict(required=True, allow_none=True)
    opponents = fields.List(fields.String(allow_none=True), required=True)
    updated_at = fields.Float(required=True)


class WaitingSchema(Schema):
    games = fields.List(fields.Nested(WaitingGameSchema), required=True)


class CreatedPlayerSchema(Schema):
    player = fields.Nested(PlayerSchema, required=True)
    key = fields.String(
        required=True,
        metadata={"description": "Acts for this player: Bearer <key>. Shown only this once."},
    )


class KeySchema(Schema):
    id = fields.String(required=True)
    label = fields.String(required=True)
    created_at = fields.Float(required=True)


class KeysSchema(Schema):
    keys = fields.List(fields.Nested(KeySchema), required=True)


class CreatedKeySchema(KeySchema):
    key = fields.String(
        required=True, metadata={"description": "The new key itself, shown only this once."}
    )


class HistoryQuerySchema(Schema):
    variant = fields.String(validate=KNOWN_VARIANT)
    since = fields.Float(
        validate=validate.Range(min=0, max=1e11),
        metadata={"description": "Games that ended (live: began) at or after this epoch time"},
    )
    until = fields.Float(
        validate=validate.Range(min=0, max=1e11),
        metadata={"description": "Games that ended (live: began) before this epoch time"},
    )
    result = fields.String(validate=validate.OneOf(["won", "lost", "drawn"]))
    opponent = fields.String(
        validate=validate.Length(min=1, max=24),
        metadata={"description": "Only games against (or beside) this player id"},
    )
    cursor = fields.String(
        validate=validate.Length(min=1, max=200),
        metadata={"description": "The `next` of the page before"},
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class HistorySeatSchema(Schema):
    seat = whole(required=True)
    name = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    player_id = fields.String(required=True, allow_none=True)
    score = fields.Float(
        required=True, allow_none=True, metadata={"description": "1 won, 0 lost, 0.5 a draw"}
    )


class HistoryGameSchema(Schema):
    id = fields.String(required=True)
    variant = fields.String(required=True)
    status = fields.String(required=True)
    players = whole(required=True)
    rated = fields.Boolean(required=True)
    created_at = fields.Float(required=True)
    ended_at = fields.Float(required=True, allow_none=True)
    seats = fields.List(fields.Nested(HistorySeatSchema), required=True)


class HistorySchema(Schema):
    games = fields.List(fields.Nested(HistoryGameSchema), required=True)
    next = fields.String(
        required=True, allow_none=True, metadata={"description": "The next page's cursor"}
    )


class RecordSeatSchema(Schema):
    seat = whole(required=True)
    name = fields.String(required=True, allow_none=True)
    player_id = fields.String(required=True, allow_none=True)
    team = whole(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    left = fields.Boolean(required=True)
    resigned = fields.Boolean(metadata={"description": "Resigned (records of version 3 on)"})


class RecordFormatSchema(Schema):
    name = fields.String(required=True, validate=validate.Equal("stacks-record"))
    version = whole(required=True)


class EngineSchema(Schema):
    name = fields.String(required=True)
    version = fields.String(required=True)


class RecordTournamentSchema(Schema):
    id = fields.String(required=True)
    round = whole(required=True)


class RecordSchema(Schema):
    """An ended game, whole: enough to replay and verify it with no server
    (docs/records.md). Cards that were never shown are not in it."""

    format = fields.Nested(RecordFormatSchema, required=True)
    engine = fields.Nested(EngineSchema, required=True)
    id = fields.String(required=True)
    variant = fields.String(required=True)
    players = whole(required=True)
    options = fields.Dict(required=True)
    status = fields.String(required=True, validate=validate.OneOf(sorted(ENDED)))
    rated = fields.Boolean(required=True)
    unrated = fields.String(
        metadata={"description": "Asked for as rated but played unrated: why (pair_limit)"}
    )
    seats = fields.List(fields.Nested(RecordSeatSchema), required=True)
    fairness = fields.Nested(FairnessSchema, required=True)
    events = fields.List(
        fields.Dict(), required=True, metadata={"description": "Every public event, in order"}
    )
    result = fields.Dict(required=True, allow_none=True)
    final_sha256 = fields.String(
        required=True,
        metadata={
            "description": "SHA-256 of the engine's spectator view at the end, as JSON with "
            "sorted keys and no spaces: what a replay of the events must end at"
        },
    )
    created_at = fields.Float(required=True)
    ended_at = fields.Float(required=True)
    rematch_of = fields.String(required=True, allow_none=True)
    tournament = fields.Nested(
        RecordTournamentSchema,
        allow_none=True,
        metadata={"description": "The tournament and round the game was played in, if any"},
    )
    duplicate = fields.Dict(
        metadata={"description": "A duplicate board's group (as the game's view shows it); "
                  "absent for an ordinary game"},
    )  # fmt: skip
