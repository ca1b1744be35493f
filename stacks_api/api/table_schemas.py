"""The schemas of the table: chat, and claiming a game."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..service.chat import LONGEST
from ..variants.fields import MAX_VERSION, seat_field, whole
from .names import shown_text


class ClaimSchema(Schema):
    outcome = fields.String(
        validate=validate.OneOf(["win", "bot"]),
        metadata={"description": "In a game with neither clock nor days: win (the absent "
                  "side resigns; the default) or bot (the greedy bot takes the absent seat)"},
    )  # fmt: skip


class SaySchema(Schema):
    text = fields.String(
        required=True,
        validate=[validate.Length(1, LONGEST), shown_text],
        metadata={"description": f"What you say: 1 to {LONGEST} characters, no control or "
                  "invisible ones"},
    )  # fmt: skip


class ChatQuerySchema(Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "Only lines said after this version (default 0: all)."},
    )


class ChatLineSchema(Schema):
    """One line of chat: the `chat` event it made."""

    type = fields.String(required=True, validate=validate.Equal("chat"))
    version = whole(required=True)
    text = fields.String(required=True)
    at = fields.Float(required=True, metadata={"description": "When it was said (epoch s)"})
    name = fields.String(required=True, allow_none=True)
    seat = seat_field(metadata={"description": "A player's line: their seat"})
    spectator = fields.String(metadata={"description": "A spectator's line: their player id"})


class ChatListSchema(Schema):
    messages = fields.List(fields.Nested(ChatLineSchema), required=True)
    spectators = whole(
        required=True, metadata={"description": "Spectators following the game's stream now"}
    )
