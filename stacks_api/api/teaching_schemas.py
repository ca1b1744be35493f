"""Marshmallow schemas of what the bots teach: a hint during a game and the analysis
of an ended one."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..variants.fields import whole


class HintMoveSchema(Schema):
    action = fields.Dict(required=True, metadata={"description": "One of your legal actions"})
    win = fields.Float(
        required=True, validate=validate.Range(min=0, max=1),
        metadata={"description": "The estimated chance of winning after it"},
    )  # fmt: skip
    why = fields.String(required=True, metadata={"description": "Why, in a few English words"})
    reason = fields.Dict(
        required=True,
        metadata={"description": "The same as a `code` and its parameters, to word it in "
                  "another language"},
    )  # fmt: skip


class HintSchema(Schema):
    version = whole(required=True, metadata={"description": "The game's version it is for"})
    moves = fields.List(
        fields.Nested(HintMoveSchema),
        required=True,
        metadata={"description": "Best first, at most 3 (none while it is computed: 202)"},
    )


class AnalysedMoveSchema(Schema):
    version = whole(required=True, metadata={"description": "The change the move made"})
    seat = whole(required=True)
    action = fields.Dict(required=True, metadata={"description": "The move played"})
    win_before = fields.Float(
        required=True, metadata={"description": "The seat's chance of winning with its best move"}
    )
    win_after = fields.Float(
        required=True, metadata={"description": "Its chance after the move it played"}
    )
    best = fields.Dict(required=True, metadata={"description": "The strong bot's move there"})
    best_why = fields.String(
        metadata={"description": "Why that move, in a few English words (as a hint says it)"}
    )
    best_reason = fields.Dict(
        metadata={"description": "The same as a `code` and its parameters (analyses made "
                  "before this field have neither)"},
    )  # fmt: skip
    mistake = fields.Boolean(
        required=True, metadata={"description": "The move lost 10 points of the chance or more"}
    )


class LuckSeatSchema(Schema):
    seat = whole(required=True)
    received = whole(required=True, metadata={"description": "Cards the seat received"})
    lucky = whole(required=True, metadata={"description": "Of them, lucky cards"})
    expected = fields.Float(
        required=True, metadata={"description": "Lucky cards the deck's share promised"}
    )


class LuckSchema(Schema):
    cards = fields.List(
        fields.String(), required=True,
        metadata={"description": "What counts as lucky: Sequence's jacks, Stacks' wilds"},
    )  # fmt: skip
    seats = fields.List(fields.Nested(LuckSeatSchema), required=True)


class AnalysisSchema(Schema):
    moves = fields.List(
        fields.Nested(AnalysedMoveSchema),
        required=True,
        metadata={"description": "Each person's move where there was a choice, in order"},
    )
    luck = fields.Nested(LuckSchema, required=True)
