"""The parts a variant builds its API schemas from: the fields every view shares, card
fields, strict integers, the action base classes.

The API's own schemas (``stacks_api.api.schemas``) are built on these too; a
variant hands its schemas to the API through ``Variant.schemas`` and never
imports the API.
"""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, RAISE, Schema, fields, validate

from ..record import STATUSES
from ..rules.base import TURN_SECONDS

MAX_PLAYERS = 12
MAX_VERSION = 10**18 - 1  # 18 digits, as in the version headers
MAX_SEAT = MAX_PLAYERS - 1


def whole(**kwargs: Any) -> fields.Integer:
    """An integer that refuses strings and floats."""
    return fields.Integer(strict=True, **kwargs)


def ranged(low: int, high: int, **kwargs: Any) -> fields.Integer:
    return whole(validate=validate.Range(min=low, max=high), **kwargs)


def card_field(codes: frozenset[str], description: str) -> fields.String:
    """A required card code of ``codes``."""
    return fields.String(
        required=True, validate=validate.OneOf(sorted(codes)), metadata={"description": description}
    )


def card_list(codes: frozenset[str], **kwargs: Any) -> fields.List[Any]:
    return fields.List(fields.String(validate=validate.OneOf(sorted(codes))), **kwargs)


def per_seat_cards(codes: frozenset[str], description: str, **kwargs: Any) -> fields.List[Any]:
    """A list of cards for each seat (of 2 to 12)."""
    return fields.List(
        card_list(codes),
        validate=validate.Length(min=2, max=MAX_PLAYERS),
        metadata={"description": description},
        **kwargs,
    )


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


class Strict(Schema):
    class Meta:
        unknown = RAISE  # documented as additionalProperties: false


class ActionShape(Schema):
    """An action's fields, for the OpenAPI document and for checking one field at a
    time; the engine refuses any field an action does not have. A request may add
    ``expected_version`` to any action (the API takes it off before the engine sees
    it), so every action schema declares it, for requests only."""

    expected_version = whole(
        load_only=True,
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "Refuse with 412 unless the game is at this version"},
    )

    class Meta:
        unknown = EXCLUDE


class PassSchema(ActionShape):
    """Pass: legal only where a variant's rules say so."""

    type = fields.String(required=True, validate=validate.Equal("pass"))


def player_fields(**own: fields.Field[Any]) -> dict[str, fields.Field[Any]]:
    """A player's fields in a view: the common ones, then the variant's ``own``."""
    return {
        "seat": whole(required=True),
        "name": fields.String(required=True, allow_none=True),
        "bot": fields.String(required=True, allow_none=True),
        "away": fields.Boolean(
            required=True,
            metadata={
                "description": "Ran out of time 3 turns in a row: the server plays "
                "this seat's turns until its token acts again"
            },
        ),
        "left": fields.Boolean(
            required=True, metadata={"description": "Left the game: the greedy bot plays on"}
        ),
        **own,
        "hand_size": whole(required=True),
        "discard_top": fields.String(required=True, allow_none=True),
    }


def you_fields(action: str, **own: fields.Field[Any]) -> dict[str, fields.Field[Any]]:
    """The seat's own part of a view; ``action`` names the variant's action schema."""
    return {
        "seat": whole(required=True),
        **own,
        "hand": fields.List(fields.String(), required=True),
        # Each item is documented as the variant's action union itself (not an open
        # object), so a generated client can narrow it by ``type`` and post it back.
        "legal_actions": fields.List(fields.Raw(metadata={"schema_ref": action}), required=True),
    }


class FairnessSchema(Schema):
    """``chosen``: the creator gave the seed or the position. ``commit-reveal-v1``: the
    server committed to a secret seed before anyone joined; once the game is over,
    ``server_seed`` and each seat's ``entropy`` are shown."""

    scheme = fields.String(required=True, validate=validate.OneOf(["chosen", "commit-reveal-v1"]))
    commitment = fields.String(metadata={"description": "SHA-256 of the server seed, hex"})
    dealer = whole(
        allow_none=True, metadata={"description": "A dealer fixed in advance (a rematch)"}
    )
    server_seed = fields.String(metadata={"description": "Once the game is over: 32 bytes, hex"})
    entropy = fields.List(
        fields.String(allow_none=True),
        metadata={"description": "Once the game is over: each seat's entropy, or null"},
    )


def view_fields(
    variant: str, you: type[Schema], player: type[Schema], **own: fields.Field[Any]
) -> dict[str, Any]:
    """A game view's fields: what every variant shows, then the variant's ``own``.
    ``variant`` is the one value its ``variant`` field takes (what tells views apart)."""
    return {
        "id": fields.String(required=True),
        "variant": fields.String(required=True, validate=validate.OneOf([variant])),
        "status": fields.String(required=True, validate=validate.OneOf(STATUSES)),
        "version": whole(required=True),
        "you": fields.Nested(
            you,
            metadata={"description": "With a seat token: your hand and every action you may take"},
        ),
        "practice": fields.Boolean(required=True),
        "deadline": fields.Float(
            required=True,
            allow_none=True,
            metadata={
                "description": "While a clock runs (a turn clock, or a block window's): "
                "when it runs out, in epoch seconds of the server's clock"
            },
        ),
        "fairness": fields.Nested(
            FairnessSchema,
            required=True,
            allow_none=True,
            metadata={
                "description": "How the deal was made (docs/fairness.md); null for a "
                "game from before deals were committed"
            },
        ),
        "rematch": fields.String(
            required=True,
            allow_none=True,
            metadata={"description": "Once the table plays again: the next game's id"},
        ),
        "options": fields.Dict(required=True, keys=fields.String()),
        "players": fields.List(fields.Nested(player), required=True),
        "to_move": fields.List(whole(), required=True),
        "result": fields.Dict(required=True, keys=fields.String(), allow_none=True),
        "turn": whole(required=True),
        "dealer": whole(allow_none=True),
        "log": fields.List(fields.Dict(keys=fields.String())),
        "discards": fields.List(fields.List(fields.String()), required=True),
        "draw_pile_count": whole(required=True),
        **own,
    }


class ClockedOptions(Strict):
    """The options every variant takes, whatever its own."""

    turn_seconds = fields.Float(
        validate=validate.Range(min=TURN_SECONDS[0], max=TURN_SECONDS[1]),
        metadata={
            "description": "Seconds a person has for each turn; when they run out, the "
            "server plays the turn (the greedy bot's moves), and after 3 in a row the "
            "seat is away until its token acts again. None by default."
        },
    )
