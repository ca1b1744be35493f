"""Marshmallow schemas for every request body and response of the HTTP API."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, pre_load, validate

from ..bots import NAMES as BOT_NAMES
from ..engine import VARIANTS
from ..engine.sequence.board import CARD_SET as SEQUENCE_CARDS
from ..engine.stacks.cards import CARD_SET as STACKS_CARDS

CARD_CODES = sorted(SEQUENCE_CARDS | STACKS_CARDS)
MAX_SEED = 2**63 - 1
MAX_VERSION = 10**18 - 1  # 18 digits, as in the version headers
MAX_PLAYERS = 12
MAX_SEAT = MAX_PLAYERS - 1
ACTION_TYPES = ["play", "exchange", "discard", "pass"]
STATUSES = ["waiting", "active", "finished", "cancelled"]


def _int(**kwargs: object) -> fields.Integer:
    """An integer that refuses strings and floats."""
    return fields.Integer(strict=True, **kwargs)  # type: ignore[arg-type]


# -- requests ---------------------------------------------------------------------


class SeatSpecSchema(Schema):
    bot = fields.String(
        allow_none=True,
        validate=validate.OneOf(BOT_NAMES),
        metadata={"description": "A bot plays this seat; leave out for a human seat."},
    )
    options = fields.Dict(
        keys=fields.String(validate=validate.Length(max=40)),
        metadata={
            "description": 'Bot options, e.g. pimc: {"iterations": 80, "seconds": 0.8} '
            "(at most 5,000 iterations and 2 s a decision)",
            "allOf": [{"$ref": "#/components/schemas/BotOptions"}],
        },
    )


class CreateGameSchema(Schema):
    variant = fields.String(required=True, validate=validate.OneOf(list(VARIANTS)))
    players = _int(
        required=True,
        validate=validate.Range(min=2, max=MAX_PLAYERS),
        metadata={"description": "Sequence: 2, 3, 4, 6, 8, 9, 10 or 12. Stacks: 2 to 6."},
    )
    options = fields.Dict(
        keys=fields.String(validate=validate.Length(max=40)),
        metadata={
            "description": "Sequence: teams, sequences_to_win. "
            "Stacks: block_window ('all' or 'holders'), response_timeout_s.",
            "allOf": [{"$ref": "#/components/schemas/GameOptions"}],
        },
    )
    seats = fields.List(
        fields.Nested(SeatSpecSchema),
        validate=validate.Length(min=1, max=MAX_PLAYERS),
        metadata={"description": "One per seat."},
    )
    seed = _int(
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={"description": "Fixes the shuffle; marks practice."},
    )
    position = fields.Dict(
        keys=fields.String(validate=validate.Length(max=40)),
        metadata={
            "description": "Start from this moment of a game (the variant's position "
            "notation); marks practice.",
            "oneOf": [
                {"$ref": "#/components/schemas/SequencePosition"},
                {"$ref": "#/components/schemas/StacksPosition"},
            ],
        },
    )

    @pre_load
    def _refuse_long_seat_lists(self, data: Any, **_: Any) -> Any:
        """Count the seats before deserializing each one: a long list costs nothing."""
        seats = data.get("seats") if isinstance(data, dict) else None
        if isinstance(seats, list) and len(seats) > MAX_PLAYERS:
            raise ValidationError(f"at most {MAX_PLAYERS} seats", "seats")
        return data


class JoinSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    seat = _int(
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_SEAT),
        metadata={"description": "A free seat; default the first."},
    )


class ActionSchema(Schema):
    """One action (API.md section 2); the same shape in requests and legal_actions."""

    type = fields.String(required=True, validate=validate.OneOf(ACTION_TYPES))
    card = fields.String(validate=validate.OneOf(CARD_CODES))
    cell = fields.List(
        _int(validate=validate.Range(min=0, max=9)),
        validate=validate.Length(equal=2),
        metadata={"description": "[row, col]"},
    )
    pile = _int(
        validate=validate.Range(min=0, max=3),
        metadata={"description": "Stacks pile 0..3 (0, 1 blue; 2, 3 red)"},
    )
    target = _int(
        validate=validate.Range(min=0, max=MAX_SEAT),
        metadata={"description": "The seat a Steal card takes from"},
    )
    color = fields.String(validate=validate.OneOf(["blue", "red"]))
    from_ = fields.String(
        data_key="from",
        attribute="from",
        validate=validate.OneOf(["hand", "discard"]),
        metadata={"description": "Stacks: play the top of your own discard pile"},
    )


class ActionRequestSchema(ActionSchema):
    expected_version = _int(
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "Refuse with 412 unless the game is at this version"},
    )


class ListQuerySchema(Schema):
    status = fields.String(load_default="waiting", validate=validate.OneOf(STATUSES))
    variant = fields.String(validate=validate.OneOf(list(VARIANTS)))
    # Query strings are text, so these integers are parsed, not strict.
    page = fields.Integer(load_default=1, validate=validate.Range(min=1, max=10_000))
    page_size = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class EventsQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION))


# -- responses --------------------------------------------------------------------


class PlayerSchema(Schema):
    seat = _int(required=True)
    name = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    team = _int(metadata={"description": "Sequence only"})
    color = fields.String(metadata={"description": "Sequence only: the team's chip colour"})
    hand_size = _int(required=True)
    discard_top = fields.String(required=True, allow_none=True)
    chips = fields.Dict(keys=fields.String(), values=_int(), metadata={"description": "Stacks"})
    skips = _int(metadata={"description": "Stacks: skip markers on this seat"})


class YouSchema(Schema):
    seat = _int(required=True)
    team = _int(metadata={"description": "Sequence only"})
    hand = fields.List(fields.String(), required=True)
    legal_actions = fields.List(fields.Nested(ActionSchema), required=True)


class BlockWindowSchema(Schema):
    completer = _int(required=True)
    pile = _int(required=True)
    waiting = fields.List(_int(), required=True)
    deadline = fields.Float(
        required=True, allow_none=True, metadata={"description": "Unix time, or null"}
    )


class GameViewSchema(Schema):
    id = fields.String(required=True)
    variant = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    version = _int(required=True)
    you = fields.Nested(
        YouSchema,
        metadata={"description": "With a seat token: your hand and every action you may take"},
    )
    practice = fields.Boolean(required=True)
    options = fields.Dict(required=True, keys=fields.String())
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    to_move = fields.List(_int(), required=True)
    result = fields.Dict(required=True, keys=fields.String(), allow_none=True)
    turn = _int(required=True)
    dealer = _int(allow_none=True)
    log = fields.List(fields.Dict(keys=fields.String()))
    discards = fields.List(fields.List(fields.String()), required=True)
    draw_pile_count = _int(required=True)
    # Sequence
    board = fields.List(fields.String(), metadata={"description": "Sequence: 10 rows"})
    sequences = fields.List(fields.List(fields.List(_int())))
    exchanged = fields.Boolean()
    passes = _int()
    # Stacks
    direction = _int()
    piles = fields.List(fields.List(fields.String()))
    chips = fields.List(fields.Dict(keys=fields.String(), values=_int()))
    supply = fields.Dict(keys=fields.String(), values=_int())
    special_discard = fields.List(fields.String())
    set_aside_count = _int()
    plays = _int(metadata={"description": "Stacks: plays made in this turn (at most 100)"})
    block_window = fields.Nested(BlockWindowSchema, allow_none=True)
    turns = _int()


class CreatedSchema(Schema):
    game = fields.Nested(GameViewSchema, required=True)
    host_token = fields.String(
        required=True, metadata={"description": "Cancels the game; keep it secret"}
    )


class JoinedSchema(Schema):
    seat = _int(required=True)
    team = _int(required=True, allow_none=True)
    token = fields.String(
        required=True, metadata={"description": "Acts for this seat: Bearer <token>"}
    )


class ActionResultSchema(Schema):
    game = fields.Nested(GameViewSchema, required=True)
    events = fields.List(fields.Dict(keys=fields.String()), required=True)


class EventsSchema(Schema):
    events = fields.List(fields.Dict(keys=fields.String()), required=True)


class SeatSummarySchema(Schema):
    seat = _int()
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True)
    free = fields.Boolean()


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    variant = fields.String(required=True)
    status = fields.String(required=True)
    players = _int(required=True)
    version = _int(required=True)
    practice = fields.Boolean(required=True)
    created_at = fields.Float(required=True)
    seats = fields.List(fields.Nested(SeatSummarySchema), required=True)


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    page = _int(required=True)
    page_size = _int(required=True)
    total = _int(required=True)


class HealthSchema(Schema):
    status = fields.String(required=True)
    store = fields.String(required=True, validate=validate.OneOf(["redis", "memory"]))
    open_streams = fields.Integer(
        required=True,
        metadata={"description": "Event streams open on the worker process that answered."},
    )


class ProblemSchema(Schema):
    """RFC 9457 problem details, with a stable ``code``."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = _int(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True)
    errors = fields.Dict(keys=fields.String())
