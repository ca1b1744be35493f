"""Sequence in the HTTP API: its view, actions, position and options."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from ..fields import (
    ActionShape,
    ClockedOptions,
    Flag,
    Parts,
    PassSchema,
    Strict,
    card_field,
    card_list,
    deal_entry,
    event,
    log_entry,
    per_seat_cards,
    player_fields,
    ranged,
    seat_field,
    view_fields,
    whole,
    you_fields,
)
from .board import CARD_SET, SIZE


def cell_field(**kwargs: Any) -> fields.List[Any]:
    return fields.List(ranged(0, SIZE - 1), validate=validate.Length(equal=2), **kwargs)


class SequencePlayActionSchema(ActionShape):
    """Place a chip (a two-eyed jack: on any open space), or remove one (a one-eyed jack)."""

    type = fields.String(required=True, validate=validate.Equal("play"))
    card = card_field(CARD_SET, "A card in your hand, e.g. 7H or JD")
    cell = cell_field(required=True, metadata={"description": "[row, col]"})


class SequenceExchangeActionSchema(ActionShape):
    """Trade a dead card (both its spaces taken) for a new one, once a turn."""

    type = fields.String(required=True, validate=validate.Equal("exchange"))
    card = card_field(CARD_SET, "The dead card")


class SequenceOptionsSchema(ClockedOptions):
    teams = ranged(2, 3, metadata={"description": "The number of teams"})
    sequences_to_win = ranged(1, 4, metadata={"description": "Default 2 (1 with 3 teams)"})


class SequenceResultSchema(Strict):
    """How the game ended: the winning team, or a draw."""

    winner_team = ranged(0, 2)
    draw = fields.Boolean(validate=validate.Equal(True))
    resigned = fields.List(
        ranged(0, 2),
        metadata={"description": "The game ended by resignation: the sides that resigned"},
    )
    board = fields.Nested(
        lambda: SequenceResultSchema(only=("winner_team", "draw")),
        metadata={"description": "Only when a person who left won the board (their "
                  "stand-in played on): the board's own result; the fields above say "
                  "who won, as a leaver has lost"},
    )  # fmt: skip


EVENTS = {
    "play": event(
        "play",
        seat=seat_field(required=True),
        card=card_field(CARD_SET, "The card"),
        cell=cell_field(required=True, metadata={"description": "[row, col]"}),
    ),
    "exchange": event(
        "exchange", seat=seat_field(required=True), card=card_field(CARD_SET, "The dead card")
    ),
    "draw": event("draw", seat=seat_field(required=True)),
    "reshuffle": event(
        "reshuffle",
        cards=whole(
            required=True, metadata={"description": "How many cards the new draw pile holds"}
        ),
    ),
    "sequence": event(
        "sequence",
        team=ranged(0, 2, required=True),
        cells=fields.List(cell_field(), required=True, validate=validate.Length(equal=5)),
    ),
    "pass": event("pass", seat=seat_field(required=True)),
}
LOG = {
    "cut": log_entry("cut", cards=fields.List(fields.Nested(Strict.from_dict(
        {"seat": seat_field(required=True), "card": card_field(CARD_SET, "The cut card")},
        name="SequenceCutCardSchema")), required=True)),
    "deal": deal_entry(),
}  # fmt: skip

SequencePlayerSchema = Schema.from_dict(
    player_fields(
        team=whole(required=True),
        color=fields.String(required=True, metadata={"description": "The team's chip colour"}),
    ),
    name="SequencePlayerSchema",
)
SequenceYouSchema = Schema.from_dict(
    you_fields("SequenceAction", team=whole(required=True)), name="SequenceYouSchema"
)
SequenceViewSchema = Schema.from_dict(
    view_fields(
        "sequence",
        Parts(
            SequenceYouSchema,
            SequencePlayerSchema,
            SequenceOptionsSchema,
            SequenceResultSchema,
            log="SequenceLogEntry",
        ),
        board=fields.List(
            fields.String(),
            required=True,
            metadata={"description": "10 rows of 10: X corner, . empty, B G R a team's chip"},
        ),
        sequences=fields.List(
            fields.List(fields.List(whole())),
            required=True,
            metadata={"description": "Completed sequences: five [row, col] cells each"},
        ),
        exchanged=fields.Boolean(
            required=True, metadata={"description": "The seat to move has traded a dead card"}
        ),
        passes=whole(required=True, metadata={"description": "Consecutive passes so far"}),
    ),
    name="SequenceViewSchema",
)


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
            fields.List(ranged(0, 9), validate=validate.Length(equal=2)),
            validate=validate.Length(equal=5),
        ),
        metadata={"description": "Completed sequences: five [row, col] cells each"},
    )
    hands = per_seat_cards(CARD_SET, "Each seat's hand", required=True)
    discards = per_seat_cards(CARD_SET, "Each seat's discard pile, bottom first")
    draw_pile = card_list(CARD_SET, metadata={"description": "Next card to draw first"})
    turn = ranged(0, 11, required=True, metadata={"description": "The seat about to act"})
    exchanged = Flag(
        metadata={"description": "The seat about to act has already traded a dead card"}
    )
    passes = ranged(0, 11, metadata={"description": "Consecutive passes just before"})


class SequencePassActionSchema(PassSchema):
    """Pass: only when you can do nothing else."""


ACTIONS = {
    "play": SequencePlayActionSchema,
    "exchange": SequenceExchangeActionSchema,
    "pass": SequencePassActionSchema,
}
