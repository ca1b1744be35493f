"""Sequence Stacks in the HTTP API: its view, actions, position and options."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from ..fields import (
    MAX_SEAT,
    ActionShape,
    ClockedOptions,
    Parts,
    PassSchema,
    Strict,
    card_field,
    card_list,
    deal_entry,
    event,
    per_seat_cards,
    player_fields,
    ranged,
    seat_field,
    view_fields,
    whole,
    you_fields,
)
from .cards import (
    CARD_SET,
    CHIPS_PER_COLOR,
    COLORS,
    COLOURED_CARDS,
    MAX_PLAYS_PER_TURN,
    MAX_TURNS,
    PILES,
)


class StacksPlayActionSchema(ActionShape):
    """A card onto a pile, or an action card (some name a target seat and a colour)."""

    type = fields.String(required=True, validate=validate.Equal("play"))
    card = card_field(
        CARD_SET, "A card in your hand (or the top of your discard pile), e.g. B3 or SKIP"
    )
    pile = ranged(0, PILES - 1, metadata={"description": "Pile 0..3 (0, 1 blue; 2, 3 red)"})
    target = ranged(0, MAX_SEAT, metadata={"description": "The seat a Steal card takes from"})
    color = fields.String(validate=validate.OneOf(COLORS))
    from_ = fields.String(
        data_key="from",
        attribute="from",
        validate=validate.OneOf(["hand", "discard"]),
        metadata={"description": "Play the top of your own discard pile"},
    )


class StacksDiscardActionSchema(ActionShape):
    """End the turn by discarding a card."""

    type = fields.String(required=True, validate=validate.Equal("discard"))
    card = card_field(CARD_SET, "A card in your hand")


class ChipsSchema(Strict):
    blue = ranged(0, CHIPS_PER_COLOR, required=True)
    red = ranged(0, CHIPS_PER_COLOR, required=True)


class BlockWindowSchema(Schema):
    completer = whole(required=True)
    pile = whole(required=True)
    waiting = fields.List(whole(), required=True)
    deadline = fields.Float(
        required=True, allow_none=True, metadata={"description": "Unix time, or null"}
    )


class StacksOptionsSchema(ClockedOptions):
    block_window = fields.String(
        validate=validate.OneOf(["all", "holders"]),
        metadata={"description": "Ask every opponent, or only those who could block"},
    )
    response_timeout_s = fields.Float(
        allow_none=True,
        validate=validate.Range(min=0, max=1e9, min_inclusive=False, max_inclusive=False),
        metadata={
            "description": "Seconds a block window stays open (null: until every "
            "seat answers, or the turn clock runs out)"
        },
    )


class StacksResultSchema(Strict):
    """How the game ended: the winning seat, or a draw."""

    winner_seat = ranged(0, MAX_SEAT)
    draw = fields.Boolean(validate=validate.Equal(True))
    resigned = fields.List(
        ranged(0, MAX_SEAT),
        metadata={"description": "The game ended by resignation: the sides that resigned"},
    )
    board = fields.Nested(
        lambda: StacksResultSchema(only=("winner_seat", "draw")),
        metadata={"description": "Only when a person who left won the board (their "
                  "stand-in played on): the board's own result; the fields above say "
                  "who won, as a leaver has lost"},
    )  # fmt: skip


def _seat(**kwargs: Any) -> fields.Integer:
    return seat_field(required=True, **kwargs)


def _pile() -> fields.Integer:
    return ranged(0, PILES - 1, required=True)


def _color() -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(COLORS))


def _waiting() -> fields.List[Any]:
    return fields.List(
        seat_field(), required=True, metadata={"description": "Seats not yet answered"}
    )


EVENTS = {
    "play": event(
        "play",
        seat=_seat(),
        card=card_field(CARD_SET, "The card"),
        pile=ranged(0, PILES - 1),
        target=seat_field(metadata={"description": "The seat a Steal card took from"}),
        color=fields.String(validate=validate.OneOf(COLORS)),
        from_=fields.String(
            data_key="from", attribute="from", validate=validate.OneOf(["hand", "discard"])
        ),
        skipped=seat_field(metadata={"description": "Skip: the seat that gets the marker"}),
        direction=fields.Integer(strict=True, validate=validate.OneOf([1, -1]),
                                 metadata={"description": "Reverse: the new direction"}),
        stolen=fields.String(validate=validate.OneOf(sorted(CARD_SET)),
                             metadata={"description": "Steal a Card: the (public) card taken"}),
    ),
    "discard": event("discard", seat=_seat(), card=card_field(CARD_SET, "The discarded card")),
    "draw": event("draw", seat=_seat(), count=ranged(1, len(CARD_SET), required=True)),
    "reshuffle": event("reshuffle", cards=whole(required=True, metadata={
        "description": "How many cards the new draw pile holds"})),
    "complete": event("complete", seat=_seat(), pile=_pile()),
    "block_window": event("block_window", completer=_seat(), pile=_pile(), waiting=_waiting(),
                          deadline=fields.Float(required=True, allow_none=True)),
    "answer": event("answer", seat=_seat()),
    "window_expired": event("window_expired", waiting=_waiting()),
    "block": event("block", seat=_seat(), pile=_pile()),
    "chip": event("chip", seat=_seat(), color=_color()),
    "skipped": event("skipped", seat=_seat()),
    "turn": event("turn", seat=_seat()),
    "pass": event("pass", seat=_seat()),
}  # fmt: skip
LOG = {"deal": deal_entry()}


StacksPlayerSchema = Schema.from_dict(
    player_fields(
        chips=fields.Nested(ChipsSchema, required=True),
        skips=whole(required=True, metadata={"description": "Skip markers on this seat"}),
    ),
    name="StacksPlayerSchema",
)
StacksYouSchema = Schema.from_dict(you_fields("StacksAction"), name="StacksYouSchema")
StacksViewSchema = Schema.from_dict(
    view_fields(
        "stacks",
        Parts(
            StacksYouSchema,
            StacksPlayerSchema,
            StacksOptionsSchema,
            StacksResultSchema,
            log="StacksLogEntry",
        ),
        direction=fields.Integer(required=True, metadata={"description": "1 or -1"}),
        piles=fields.List(fields.List(fields.String()), required=True),
        chips=fields.List(fields.Nested(ChipsSchema), required=True),
        supply=fields.Nested(ChipsSchema, required=True),
        special_discard=fields.List(fields.String(), required=True),
        set_aside_count=whole(required=True),
        set_aside=card_list(
            COLOURED_CARDS,
            required=True,
            metadata={
                "description": "The set-aside heap, bottom first: the cards of completed piles, "
                "all played face up, so public. It becomes the draw pile when that runs out"
            },
        ),
        block_window=fields.Nested(BlockWindowSchema, required=True, allow_none=True),
        turns=whole(required=True),
        plays=whole(
            required=True,
            metadata={"description": f"Plays made in this turn (at most {MAX_PLAYS_PER_TURN})"},
        ),
    ),
    name="StacksViewSchema",
)


class StacksPositionSchema(Strict):
    piles = fields.List(
        card_list(COLOURED_CARDS, validate=validate.Length(max=4)),
        required=True,
        validate=validate.Length(equal=PILES),
        metadata={"description": "Piles 0 and 1 blue, 2 and 3 red; each in order, bottom first"},
    )
    hands = per_seat_cards(CARD_SET, "Each seat's hand (any size)", required=True)
    discards = per_seat_cards(CARD_SET, "Each seat's discard pile, bottom first")
    chips = fields.List(fields.Nested(ChipsSchema), validate=validate.Length(min=2, max=6))
    set_aside = card_list(COLOURED_CARDS, metadata={"description": "Completed piles set aside"})
    special_discard = card_list(CARD_SET - COLOURED_CARDS)
    draw_pile = card_list(CARD_SET, metadata={"description": "Next card to draw first"})
    direction = fields.Integer(strict=True, validate=validate.OneOf([1, -1]))
    skips = fields.List(ranged(0, 3), metadata={"description": "Skip markers on each seat"})
    turn = ranged(0, 5, required=True, metadata={"description": "The seat about to act"})
    plays = ranged(0, MAX_PLAYS_PER_TURN, metadata={"description": "Plays made in this turn"})
    turns = ranged(0, MAX_TURNS - 1, metadata={"description": "Turns taken so far"})


class StacksPassActionSchema(PassSchema):
    """Pass: only when you can do nothing else."""


ACTIONS = {
    "play": StacksPlayActionSchema,
    "discard": StacksDiscardActionSchema,
    "pass": StacksPassActionSchema,
}
