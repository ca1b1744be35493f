"""The parts a variant builds its API schemas from: the fields every view shares, card
fields, strict integers, the action base classes.

The API's own schemas (``stacks_api.api.schemas``) are built on these too; a
variant hands its schemas to the API through ``Variant.schemas`` and never
imports the API.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from marshmallow import EXCLUDE, RAISE, Schema, fields, validate

from ..model.record import STATUSES
from ..rules.base import TURN_SECONDS

MAX_PLAYERS = 12
MAX_VERSION = 10**18 - 1  # 18 digits, as in the version headers
MAX_SEAT = MAX_PLAYERS - 1


def whole(**kwargs: Any) -> fields.Integer:
    """An integer that refuses strings and floats."""
    return fields.Integer(strict=True, **kwargs)


class Flag(fields.Boolean):
    """A JSON true or false. The plain Boolean also takes 0, 1 and strings such as
    "yes", which the OpenAPI document's ``boolean`` does not allow."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


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
        "player_id": fields.String(
            required=True,
            allow_none=True,
            metadata={"description": "The account the seat is linked to, if any"},
        ),
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
        "resigned": fields.Boolean(
            required=True,
            metadata={
                "description": "Resigned (their side did): the greedy bot plays on, "
                "the seat has lost"
            },
        ),
        "score": fields.Float(
            required=True,
            allow_none=True,
            metadata={
                "description": "Once the game is over: 1 won, 0 lost, 0.5 a draw. A person "
                "who left has lost, whatever the stand-in did on the board."
            },
        ),
        "presence": fields.String(
            required=True,
            allow_none=True,
            validate=validate.OneOf(["online", "away", "offline"]),
            metadata={
                "description": "A person's, while the game is on: online (an open stream "
                "or a request within 60 s), away (within 10 minutes), offline; null for a "
                "bot or an open seat"
            },
        ),
        "seen_at": fields.Float(
            required=True,
            allow_none=True,
            metadata={"description": "When the person was last seen (epoch s, to the minute)"},
        ),
        "claimable_at": fields.Float(
            required=True,
            allow_none=True,
            metadata={
                "description": "A game with neither a turn clock nor days, once this "
                "person is no longer online: from when (epoch s, to the second) they can "
                "be claimed by another side if they are to move and still unseen (POST "
                "/games/{id}/claim); null otherwise"
            },
        ),
        "vacation_days_left": whole(
            required=True,
            allow_none=True,
            metadata={"description": "A days game: whole vacation days the account has left"},
        ),
        "bot_account": fields.Boolean(
            required=True,
            metadata={"description": "The seat's account is a bot account (a program, BOT)"},
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
    """``chosen``: the creator gave the seed or the position. ``commit-reveal-v2``: the
    server committed to a secret seed (and the dealer fixed in advance, if any)
    before anyone joined; once the game is over, ``server_seed`` and each seat's
    ``entropy`` are shown. ``commit-reveal-v1``: games made before v2. A chosen deal
    shows its ``seed`` and ``position`` once the game is over."""

    scheme = fields.String(
        required=True,
        validate=validate.OneOf(["chosen", "commit-reveal-v1", "commit-reveal-v2"]),
    )
    commitment = fields.String(
        metadata={"description": "SHA-256 over the server seed and the fixed dealer, hex"}
    )
    dealer = whole(
        allow_none=True, metadata={"description": "A dealer fixed in advance (a rematch)"}
    )
    server_seed = fields.String(metadata={"description": "Once the game is over: 32 bytes, hex"})
    seed = fields.Integer(
        metadata={"description": "A chosen deal, once the game is over: the seed it was dealt from"}
    )
    position = fields.Dict(
        allow_none=True,
        metadata={"description": "A chosen deal, once the game is over: the position it began at"},
    )
    entropy = fields.List(
        fields.String(allow_none=True),
        metadata={"description": "Once the game is over: each seat's entropy, or null"},
    )


def seat_field(**kwargs: Any) -> fields.Integer:
    return ranged(0, MAX_SEAT, **kwargs)


def event(kind: str, **own: fields.Field[Any]) -> type[Schema]:
    """The schema of one type of event: the version of the change that made it, its
    ``type``, then its ``own`` fields (a client can tell the types apart by ``type``)."""
    return Strict.from_dict(
        {
            "version": ranged(1, MAX_VERSION, required=True),
            "type": fields.String(required=True, validate=validate.OneOf([kind])),
            **own,
        },
        name=f"{kind}_event",
    )


def log_entry(kind: str, **own: fields.Field[Any]) -> type[Schema]:
    """The schema of one type of entry in a view's ``log`` (how the game began)."""
    return Strict.from_dict(
        {"type": fields.String(required=True, validate=validate.OneOf([kind])), **own},
        name=f"{kind}_entry",
    )


def deal_entry() -> type[Schema]:
    """The log entry every variant begins with: who dealt, and who starts."""
    return log_entry("deal", dealer=seat_field(required=True), first=seat_field(required=True))


class Parts(NamedTuple):
    """What a view nests of its variant's own: a player, the seat's own part, the
    options, the result, and the component name of its log entries' union."""

    you: type[Schema]
    player: type[Schema]
    options: type[Schema]
    result: type[Schema]
    log: str


def view_fields(variant: str, parts: Parts, **own: fields.Field[Any]) -> dict[str, Any]:
    """A game view's fields: what every variant shows, then the variant's ``own``.
    ``variant`` is the one value its ``variant`` field takes (what tells views apart)."""
    return {
        "id": fields.String(required=True),
        "variant": fields.String(required=True, validate=validate.OneOf([variant])),
        "status": fields.String(required=True, validate=validate.OneOf(STATUSES)),
        "version": whole(required=True),
        "you": fields.Nested(
            parts.you,
            metadata={"description": "With a seat token: your hand and every action you may take"},
        ),
        "practice": fields.Boolean(required=True),
        "deadline": fields.Float(
            required=True,
            allow_none=True,
            metadata={
                "description": "While a clock runs (a turn clock, a days game's deadline, "
                "or a block window's): when it runs out, in epoch seconds of the server's "
                "clock"
            },
        ),
        "pace": fields.Dict(
            required=True,
            allow_none=True,
            metadata={
                "description": 'A days game: {"days": n}, the days each person has for a '
                "turn; null otherwise"
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
        "unlisted": fields.Boolean(
            required=True,
            metadata={"description": "A private table: not listed, joined by its link"},
        ),
        "rated": fields.Boolean(
            required=True,
            metadata={"description": "Its players' ratings change when it ends"},
        ),
        "unrated": fields.String(
            required=True,
            allow_none=True,
            validate=validate.OneOf(["pair_limit"]),
            metadata={
                "description": "Why a game asked for as rated is played unrated: "
                "pair_limit (two of its accounts began 3 rated games together in the "
                "last 24 hours); null otherwise"
            },
        ),
        "tournament": fields.Dict(
            required=True,
            allow_none=True,
            metadata={
                "description": 'The tournament and round it was made for ({"id", '
                '"round"}), or null (docs/tournaments.md)'
            },
        ),
        "duplicate": fields.Dict(
            required=True,
            allow_none=True,
            metadata={
                "description": 'A duplicate board: its group, {"tournament", "round"} or '
                '{"match", "games"}; every game of the group has the same deal, and each is '
                "closed to all but its own seats until all of them have ended (null: an "
                "ordinary game)"
            },
        ),
        "cancel_agreed": fields.List(
            whole(),
            required=True,
            metadata={
                "description": "Seats whose person agreed to cancel the game after its deal "
                "(it is cancelled once every person has)"
            },
        ),
        "rematch": fields.String(
            required=True,
            allow_none=True,
            metadata={"description": "Once the table plays again: the next game's id"},
        ),
        "options": fields.Nested(
            parts.options,
            required=True,
            metadata={"description": "Every option, defaults filled in"},
        ),
        "players": fields.List(fields.Nested(parts.player), required=True),
        "to_move": fields.List(whole(), required=True),
        "result": fields.Nested(
            parts.result,
            required=True,
            allow_none=True,
            metadata={"description": "Null while the game is on"},
        ),
        "turn": whole(required=True),
        "dealer": whole(allow_none=True),
        "log": fields.List(
            fields.Raw(metadata={"schema_ref": parts.log}),
            metadata={"description": "How the game began"},
        ),
        "discards": fields.List(fields.List(fields.String()), required=True),
        "draw_pile_count": whole(required=True),
        **own,
    }


class ClockedOptions(Strict):
    """The options every variant takes, whatever its own."""

    days = fields.Integer(
        validate=validate.OneOf([1, 2, 3, 5, 7, 10, 14]),
        metadata={
            "description": "A days game: each person has this many days for each turn, "
            "with vacation days from their account's bank once it passes (never with "
            "turn_seconds). None by default."
        },
    )

    turn_seconds = fields.Float(
        validate=validate.Range(min=TURN_SECONDS[0], max=TURN_SECONDS[1]),
        metadata={
            "description": "Seconds a person has for each turn; when they run out, the "
            "server plays the turn (the greedy bot's moves), and after 3 in a row the "
            "seat is away until its token acts again. None by default."
        },
    )
