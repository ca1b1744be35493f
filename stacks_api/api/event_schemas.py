"""The schemas of events, and of the answers that carry them (an action's result,
the events list), each documented per variant: the variants share some event type
names, so a generated client parses an event as its own variant's type only where
the answer says which variant it is of."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from .. import variants
from ..model.events import SERVER_EVENTS
from ..variants.fields import event, ref, seat_field
from .schemas import KNOWN_VARIANT, GameViewSchema


def _revealed() -> dict[str, fields.Field[Any]]:
    """What the event that ends a committed deal's game shows (docs/fairness.md)."""
    return {
        "server_seed": fields.String(metadata={"description": "The committed seed, hex"}),
        "entropy": fields.List(
            fields.String(allow_none=True), metadata={"description": "Each seat's, or null"}
        ),
    }


def _seat_event(kind: str) -> type[Schema]:
    return event(kind, seat=seat_field(required=True))


# The events the server writes around every variant's own, by type.
SERVER_EVENT_SCHEMAS: dict[str, type[Schema]] = {
    "created": event("created"),
    "joined": event("joined", seat=seat_field(required=True), name=fields.String(required=True)),
    "started": event("started", to_move=fields.List(seat_field(), required=True)),
    "cancelled": event("cancelled", **_revealed()),
    **{kind: _seat_event(kind) for kind in ("cancel_agreed", "away", "back", "left")},
    "timeout": event(
        "timeout",
        seat=seat_field(required=True),
        forfeit=fields.Boolean(
            metadata={"description": "A days game whose bank was empty: the side lost"}
        ),
        seats=fields.List(seat_field(), metadata={"description": "With forfeit: the side"}),
        result=fields.Dict(metadata={"description": "With forfeit, when one side was left"}),
        **_revealed(),
    ),
    "vacation": event(
        "vacation",
        seat=seat_field(required=True),
        days_left=fields.Integer(
            required=True, metadata={"description": "Whole days left in the account's bank"}
        ),
    ),
    "resigned": event(
        "resigned",
        seat=seat_field(required=True),
        seats=fields.List(seat_field(), required=True),
        claimed_by=seat_field(
            metadata={"description": "The side was away: this seat claimed it (resigned it)"}
        ),
        no_show=fields.Boolean(
            metadata={
                "description": "A tournament game: the seat's person never moved "
                "and their first turn's clock ran out, so the server resigned it"
            }
        ),
        result=fields.Dict(
            metadata={
                "description": "Only when the resignation ended the game: its result, "
                "as the variant's `game_over` gives it, with the sides that resigned"
            }
        ),
        **_revealed(),
    ),
    "aborted": event(
        "aborted",
        seat=seat_field(required=True),
        timeout=fields.Boolean(
            metadata={"description": "A days game's deadline passed in its opening"}
        ),
        **_revealed(),
    ),
    "chat": event(
        "chat",
        text=fields.String(required=True, validate=validate.Length(1, 300)),
        at=fields.Float(required=True, metadata={"description": "When it was said (epoch s)"}),
        name=fields.String(allow_none=True, metadata={"description": "Who said it"}),
        seat=seat_field(metadata={"description": "A player's line: their seat"}),
        spectator=fields.String(metadata={"description": "A spectator's line: their id"}),
    ),
}
SERVER_EVENT_MEANINGS = {
    "created": "The game was created.",
    "joined": "A person took `seat` as `name`.",
    "started": "The last seat was taken and the cards dealt: `to_move`.",
    "cancel_agreed": "After the deal, the seat's person agreed to cancel the game.",
    "cancelled": "The game was cancelled: by its host before the deal, or once every "
    "person at the table agreed (a committed deal's secrets shown).",
    "timeout": "The seat's turn clock ran out: the server's moves for that turn follow. "
    "In a days game (`forfeit`): the seat's deadline passed with no vacation day left, "
    "and its side has lost, as if it resigned.",
    "vacation": "A days game's deadline passed: a day was taken from the seat's "
    "vacation bank (`days_left`) and the deadline moved on a day.",
    "away": "A third timeout in a row: the server plays the seat at once until it acts.",
    "back": "An away seat's token acted again.",
    "left": "The seat's person left (a bot plays on; before the start it is free again).",
    "resigned": "The seat's person resigned for their side (`seats`, played on by the "
    "greedy bot and scored as lost); with `result` when one side was left, which won.",
    "aborted": "The seat's person aborted the game before every side had made two moves "
    "(or, `timeout`, a days game's deadline passed then): it ended unrated, nobody won.",
    "chat": "A line of table chat: a player's (`seat`) or a spectator's (`spectator`, "
    "sent to players only once the game has ended).",
    "game_over": "The game ended: `result` (a committed deal's secrets shown).",
}
assert set(SERVER_EVENT_SCHEMAS) == SERVER_EVENTS
assert set(SERVER_EVENT_MEANINGS) == SERVER_EVENTS | {"game_over"}


def game_over_event(result: type[Schema]) -> type[Schema]:
    """The last event of a finished game of the variant whose result is ``result``."""
    return event("game_over", result=fields.Nested(result, required=True), **_revealed())


def event_list(prefix: str) -> fields.List[Any]:
    """Events as sent: each documented as a ``<prefix>Event`` (``openapi.register``),
    the union of the event types of the variant whose schemas are named ``prefix``."""
    return fields.List(fields.Raw(metadata={"schema_ref": f"{prefix}Event"}), required=True)


def _variant_schema(part: str, union: str = "oneOf") -> dict[str, Any]:
    """One of the registered variants' ``<Prefix><part>`` components."""
    return {union: [ref(f"{v.schema_prefix}{part}") for v in variants.registered().values()]}


def _any_event_list() -> fields.List[Any]:
    """Events of any variant, as sent (the schema documents itself per variant)."""
    return fields.List(fields.Raw(), required=True)


class ActionResultSchema(Schema):
    game = fields.Nested(GameViewSchema, required=True)
    events = _any_event_list()

    @classmethod
    def openapi(cls) -> dict[str, Any]:
        # One per variant (``action_result``): a generated client then parses each event
        # as its own variant's type (the variants share some type names). anyOf: what
        # tells them apart is nested (the view's ``variant``), out of a linter's sight.
        return _variant_schema("ActionResult", "anyOf")


def action_result(prefix: str) -> type[Schema]:
    """An action's answer in a game of the variant whose schemas are named ``prefix``."""
    return Schema.from_dict(
        {"game": fields.Raw(required=True, metadata={"schema_ref": f"{prefix}View"}),
         "events": event_list(prefix)},
        name=f"{prefix}ActionResultSchema",
    )  # fmt: skip


class EventsSchema(Schema):
    variant = fields.String(required=True, validate=KNOWN_VARIANT)
    events = _any_event_list()

    @classmethod
    def openapi(cls) -> dict[str, Any]:
        union = _variant_schema("Events")
        union["discriminator"] = {
            "propertyName": "variant",
            "mapping": {v.name: ref(f"{v.schema_prefix}Events")["$ref"]
                        for v in variants.registered().values()},
        }  # fmt: skip
        return union


def events_page(variant: str, prefix: str) -> type[Schema]:
    """Events of a game of ``variant``, whose schemas are named ``prefix``."""
    return Schema.from_dict(
        {"variant": fields.String(required=True, validate=validate.OneOf([variant])),
         "events": event_list(prefix)},
        name=f"{prefix}EventsSchema",
    )  # fmt: skip
