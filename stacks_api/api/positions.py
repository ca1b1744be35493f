"""The shapes of positions and options, for the OpenAPI document (API.md section 3).

The engine validates positions and options strictly (a 422 names the first
problem); these schemas state every rule of shape it checks, so a client, the
explorer and schema-driven tools know them up front. Rules that depend on the
game (a card count that must match the deck, a turn past the player count,
teams that do not divide the players) are the engine's alone.
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec
from marshmallow import RAISE, Schema, fields, validate

from ..engine.sequence.board import CARD_SET as SEQUENCE_CARDS
from ..engine.stacks.cards import CARD_SET as STACKS_CARDS
from ..engine.stacks.cards import CHIPS_PER_COLOR, COLOURED_CARDS, MAX_PLAYS_PER_TURN

MAX_SEAT = 11


def _cards(codes: frozenset[str], **kwargs: object) -> fields.List[Any]:
    return fields.List(fields.String(validate=validate.OneOf(sorted(codes))), **kwargs)  # type: ignore[arg-type]


def _per_seat(cards: frozenset[str], description: str, **kwargs: object) -> fields.List[Any]:
    return fields.List(
        _cards(cards),
        validate=validate.Length(min=2, max=MAX_SEAT + 1),
        metadata={"description": description},
        **kwargs,  # type: ignore[arg-type]
    )


def _int(low: int, high: int, **kwargs: object) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(min=low, max=high), **kwargs)  # type: ignore[arg-type]


class Strict(Schema):
    class Meta:
        unknown = RAISE  # documented as additionalProperties: false


class SequencePositionSchema(Strict):
    board = fields.List(
        fields.String(validate=validate.Regexp(r"^[XBGR.]{10}$")),
        required=True,
        validate=validate.Length(equal=10),
        metadata={
            "description": "10 rows of 10: X corner (the four corners only), . empty, "
            "B blue (team 0), G green (team 1), R red (team 2)"
        },
    )
    sequences = fields.List(
        fields.List(
            fields.List(_int(0, 9), validate=validate.Length(equal=2)),
            validate=validate.Length(equal=5),
        ),
        metadata={"description": "Completed sequences: five [row, col] cells each"},
    )
    hands = _per_seat(SEQUENCE_CARDS, "Each seat's hand", required=True)
    discards = _per_seat(SEQUENCE_CARDS, "Each seat's discard pile, bottom first")
    draw_pile = _cards(SEQUENCE_CARDS, metadata={"description": "Next card to draw first"})
    turn = _int(0, MAX_SEAT, required=True, metadata={"description": "The seat about to act"})


class ChipsSchema(Strict):
    blue = _int(0, CHIPS_PER_COLOR, required=True)
    red = _int(0, CHIPS_PER_COLOR, required=True)


class StacksPositionSchema(Strict):
    piles = fields.List(
        _cards(COLOURED_CARDS, validate=validate.Length(max=4)),
        required=True,
        validate=validate.Length(equal=4),
        metadata={"description": "Piles 0 and 1 blue, 2 and 3 red; each in order, bottom first"},
    )
    hands = _per_seat(STACKS_CARDS, "Each seat's hand (any size)", required=True)
    discards = _per_seat(STACKS_CARDS, "Each seat's discard pile, bottom first")
    chips = fields.List(fields.Nested(ChipsSchema), validate=validate.Length(min=2, max=6))
    set_aside = _cards(COLOURED_CARDS, metadata={"description": "Completed piles set aside"})
    special_discard = _cards(STACKS_CARDS - COLOURED_CARDS)
    draw_pile = _cards(STACKS_CARDS, metadata={"description": "Next card to draw first"})
    direction = fields.Integer(strict=True, validate=validate.OneOf([1, -1]))
    skips = fields.List(_int(0, 3), metadata={"description": "Skip markers on each seat"})
    turn = _int(0, 5, required=True, metadata={"description": "The seat about to act"})
    plays = _int(0, MAX_PLAYS_PER_TURN, metadata={"description": "Plays made in this turn"})


class GameOptionsSchema(Strict):
    """Every option of either variant; each variant refuses the other's (422)."""

    teams = _int(2, 3, metadata={"description": "Sequence: the number of teams"})
    sequences_to_win = _int(1, 4, metadata={"description": "Sequence: default 2 (1 for 3 teams)"})
    block_window = fields.String(
        validate=validate.OneOf(["all", "holders"]),
        metadata={"description": "Stacks: ask every opponent, or only those who could block"},
    )
    response_timeout_s = fields.Float(
        validate=validate.Range(min=0, max=1e9, min_inclusive=False, max_inclusive=False),
        metadata={"description": "Stacks: seconds a block window stays open"},
    )


class BotOptionsSchema(Strict):
    iterations = _int(1, 5_000, metadata={"description": "pimc: sampled worlds a decision"})
    seconds = fields.Float(
        validate=validate.Range(min=0.01, max=2.0),
        metadata={"description": "pimc: most thinking time a decision"},
    )


def register(spec: APISpec) -> None:
    """Add the schemas that the request fields refer to by name."""
    spec.components.schema("SequencePosition", schema=SequencePositionSchema)
    spec.components.schema("StacksPosition", schema=StacksPositionSchema)
    spec.components.schema("GameOptions", schema=GameOptionsSchema)
    spec.components.schema("BotOptions", schema=BotOptionsSchema)
