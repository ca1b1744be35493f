"""Marshmallow schemas for every request body and response of the HTTP API.

What depends on the game (views, actions, positions, options) is each variant's
own (``Variant.schemas``, built on the parts here); the schemas here that carry
such a value hand it to the variant's schema and are documented as a ``oneOf``
over the registered variants (see ``openapi``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import (
    INCLUDE,
    Schema,
    ValidationError,
    fields,
    pre_load,
    validate,
    validates_schema,
)

from .. import bots, variants
from ..model.fairness import ENTROPY
from ..model.record import STATUSES
from ..variants.fields import (
    MAX_PLAYERS,
    MAX_SEAT,
    MAX_VERSION,
    Flag,
    Strict,
    ref,
    whole,
)
from .names import shown_name

MAX_SEED = 2**63 - 1
MAX_PAGE_SIZE = 50  # a lobby page's cost grows with it: each game on it is read whole
# Pages counted from the top read every index from the top: deeper, the cursor.
MAX_PAGE = 20


@dataclass(frozen=True)
class OneOfRegistered:
    """A validator for one of a set read when it checks, not when declared: the variant
    registry can grow after this module is imported (a plug-in registers its game).
    The OpenAPI document lists the set as an ``enum`` (``openapi._registered_enum``)."""

    read: Callable[[], Iterable[str]]

    def __call__(self, value: str) -> None:
        known = sorted(self.read())
        if value not in known:
            raise ValidationError(f"Must be one of: {', '.join(known)}.")


def action_types() -> set[str]:
    return {kind for v in variants.registered().values() for kind in v.schemas.actions}


KNOWN_VARIANT = OneOfRegistered(variants.names)
KNOWN_ACTION = OneOfRegistered(action_types)


def per_variant(part: str, description: str, **kwargs: Any) -> fields.Dict:
    """A JSON object whose shape is the variant's ``part`` (``Position``, ``Options``):
    documented as one of the registered variants' schemas."""
    metadata = {"description": description, "variant_part": part}
    return fields.Dict(
        keys=fields.String(validate=validate.Length(max=40)), metadata=metadata, **kwargs
    )


# -- requests ---------------------------------------------------------------------


class SeatSpecSchema(Schema):
    bot = fields.String(
        validate=validate.OneOf(bots.NAMES),
        metadata={"description": "A bot plays this seat; leave out for a human seat."},
    )
    options = fields.Dict(
        keys=fields.String(validate=validate.Length(max=40)),
        metadata={"schema_ref": "BotOptions"},
    )


class CreateGameSchema(Schema):
    variant = fields.String(required=True, validate=KNOWN_VARIANT)
    players = whole(
        required=True,
        validate=validate.Range(min=2, max=MAX_PLAYERS),
        metadata={"description": "How many seats; each variant allows its own counts."},
    )
    options = per_variant("Options", "The variant's options (each refuses any other).")
    seats = fields.List(
        fields.Nested(SeatSpecSchema),
        validate=validate.Length(min=1, max=MAX_PLAYERS),
        metadata={"description": "One per seat."},
    )
    seed = whole(
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={"description": "Fixes the shuffle; marks practice."},
    )
    position = per_variant(
        "Position", "Start from this moment of a game (the variant's position notation); "
        "marks practice."
    )  # fmt: skip
    unlisted = Flag(
        metadata={
            "description": "A private table: not in the public lobby, joined by its link "
            "(its id) only. Default false."
        },
    )
    rated = Flag(
        metadata={
            "description": "A rated game: every person joins with a player key and "
            "entropy, the deal is the server's committed one (no seed, no position), and "
            "each player's rating for the variant changes once when it ends. Default false."
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
    name = fields.String(
        validate=[validate.Length(min=1, max=40), shown_name],
        metadata={
            "description": "Shown to everyone: no control or bidirectional characters. "
            "Needed unless you join with a player key (then your account's name)."
        },
    )
    seat = whole(
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_SEAT),
        metadata={"description": "A free seat; default the first."},
    )
    entropy = fields.String(
        validate=validate.Regexp(ENTROPY),
        metadata={
            "description": "1 to 64 hex characters of your own randomness, mixed into the "
            "deal (docs/fairness.md); kept secret until the game is over, never echoed."
        },
    )


@cache
def _action_fields(names: tuple[str, ...]) -> dict[str, list[fields.Field[Any]]]:
    """Every field the actions of the variants ``names`` have, by name."""
    found: dict[str, list[fields.Field[Any]]] = {}
    for variant in map(variants.registered().__getitem__, names):
        for schema in variant.schemas.actions.values():
            for name, field in schema().fields.items():
                found.setdefault(field.data_key or name, []).append(field)
    return found


class ActionRequestSchema(Schema):
    """One action, in the shape of some variant's actions (the game's variant checks it
    exactly), and an optional version precondition."""

    type = fields.String(required=True, validate=KNOWN_ACTION)
    expected_version = whole(
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "Refuse with 412 unless the game is at this version"},
    )

    class Meta:
        unknown = INCLUDE

    @validates_schema
    def _each_field_fits_some_variant(self, data: dict[str, Any], **_: Any) -> None:
        known = _action_fields(tuple(variants.names()))
        for name, value in data.items():
            if name in ("type", "expected_version"):
                continue
            shapes = known.get(name)
            if shapes is None:
                raise ValidationError(f"no action has a field {name!r}", name[:40])
            problems = []
            for field in shapes:
                try:
                    field.deserialize(value)
                    break
                except ValidationError as error:
                    problems.append(error.messages)
            else:
                raise ValidationError(problems[0], name)

    @classmethod
    def openapi(cls) -> dict[str, Any]:
        # Every action schema declares expected_version itself: a plain reference is
        # what generators can take (an allOf over a union is not).
        return ref("Action")


class ListQuerySchema(Schema):
    status = fields.String(load_default="waiting", validate=validate.OneOf(STATUSES))
    variant = fields.String(validate=KNOWN_VARIANT)
    # Query strings are text, so these integers are parsed, not strict.
    page = fields.Integer(
        load_default=1,
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={"description": f"From the top, at most {MAX_PAGE}: deeper, follow `next`"},
    )
    page_size = fields.Integer(load_default=20, validate=validate.Range(min=1, max=MAX_PAGE_SIZE))
    cursor = fields.String(
        validate=validate.Length(min=1, max=200),
        metadata={"description": "The `next` of the page before (then `page` is not read)"},
    )


class EventsQuerySchema(Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={"description": "Only events after this version (default 0: all of them)."},
    )
    watch = fields.Boolean(
        load_default=False,
        metadata={"description": "As a spectator: the spectators' chat too, and (a stream) "
                  "counted among the game's spectators. Players leave it out: while the game "
                  "is on, their events carry the table's chat only."},
    )  # fmt: skip


# -- responses --------------------------------------------------------------------


class GameViewSchema(Schema):
    """A game as one seat (or a spectator) sees it: dumped by its variant's schema."""

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        if many:
            return [self.dump(one) for one in obj]
        if not isinstance(obj, dict):  # no view (a 304's empty body)
            return super().dump(obj)
        return _view_schema(obj["variant"]).dump(obj)

    @classmethod
    def openapi(cls) -> dict[str, Any]:
        registered = variants.registered().values()
        return {
            "oneOf": [ref(f"{v.schema_prefix}View") for v in registered],
            "discriminator": {
                "propertyName": "variant",
                "mapping": {v.name: ref(f"{v.schema_prefix}View")["$ref"] for v in registered},
            },
        }


@cache
def _view_schema(name: str) -> Schema:
    variant = variants.get(name)
    assert variant is not None, "a stored game always has a registered variant"
    return variant.schemas.view()


class CreatedSchema(Schema):
    game = fields.Nested(GameViewSchema, required=True)
    host_token = fields.String(
        required=True, metadata={"description": "Cancels the game; keep it secret"}
    )


class JoinedSchema(Schema):
    seat = whole(required=True)
    team = whole(required=True, allow_none=True)
    token = fields.String(
        required=True, metadata={"description": "Acts for this seat: Bearer <token>"}
    )


class RematchRequestSchema(Schema):
    entropy = fields.String(
        validate=validate.Regexp(ENTROPY),
        metadata={
            "description": "1 to 64 hex characters of your own randomness, mixed into the "
            "next game's deal; never echoed."
        },
    )


class RematchSchema(Schema):
    game = fields.Nested(GameViewSchema, required=True)
    seat = whole(required=True)
    token = fields.String(
        required=True, metadata={"description": "Acts for your seat in the new game"}
    )


class SeatSummarySchema(Schema):
    seat = whole()
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True)
    free = fields.Boolean()


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    variant = fields.String(required=True)
    status = fields.String(required=True)
    players = whole(required=True)
    version = whole(required=True)
    practice = fields.Boolean(required=True)
    rated = fields.Boolean(required=True)
    days = whole(required=True, allow_none=True, metadata={"description": "Days a turn"})
    created_at = fields.Float(required=True)
    seats = fields.List(fields.Nested(SeatSummarySchema), required=True)
    rating = fields.Float(
        allow_none=True,
        metadata={"description": "Games being played: the mean rating of the accounts "
                  "seated (null: none)"},
    )  # fmt: skip
    spectators = whole(metadata={"description": "Games being played: who watches now"})


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    page = whole(required=True)
    page_size = whole(required=True)
    total = whole(required=True)
    next = fields.String(
        required=True, allow_none=True, metadata={"description": "The next page's cursor"}
    )


class ArchiveHealthSchema(Schema):
    database = fields.String(required=True, validate=validate.OneOf(["postgresql", "sqlite"]))
    reachable = fields.Boolean(
        required=True, metadata={"description": "Whether the database answered just now"}
    )
    backlog = whole(
        required=True,
        metadata={
            "description": "Ended games waiting to be archived: a few at most while the "
            "database answers; it grows while the database is away (games go on)."
        },
    )


class HealthSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["ok", "degraded"]))
    store = fields.String(required=True, validate=validate.OneOf(["redis", "memory"]))
    open_streams = fields.Integer(
        required=True,
        metadata={
            "description": "Event streams open on the whole server: every web process "
            "reports its own every 2 s, so the total lags a change by up to that."
        },
    )
    archive = fields.Nested(ArchiveHealthSchema, required=True)


def _bot_option(bot: str, option: bots.Option) -> fields.Field[Any]:
    checks: dict[str, Any] = {
        "validate": validate.Range(min=option.low, max=option.high),
        "metadata": {"description": f"{bot}: {option.meaning}"},
    }
    return whole(**checks) if option.kind is int else fields.Float(**checks)


# Every bot's options in one object (each bot refuses those it does not take).
BotOptionsSchema = Strict.from_dict(
    {name: _bot_option(bot, option) for bot, taken in bots.OPTIONS.items()
     for name, option in taken.items()},
    name="BotOptionsSchema",
)  # fmt: skip


class ProblemSchema(Schema):
    """RFC 9457 problem details, with a stable ``code``."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    status = whole(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True)
    errors = fields.Dict(keys=fields.String())
    error = fields.String(metadata={"description": "OAuth's own error code (the /oauth routes)"})
    error_description = fields.String(metadata={"description": "OAuth's: the same as detail"})
