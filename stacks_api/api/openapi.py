"""The OpenAPI document's view of the variants: each variant's schemas as components
(``<Prefix>View``, ``<Prefix>Action``, ``<Prefix>Position``, ...), each with an
example from a real seeded game, and the unions over them (``GameView`` by
``variant``, each variant's actions by ``type``)."""

from __future__ import annotations

from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.openapi import OpenAPIConverter
from marshmallow import fields

from .. import variants
from ..variants.fields import ref
from ..variants.kit import Variant
from . import examples
from .event_schemas import (
    SERVER_EVENT_MEANINGS,
    SERVER_EVENT_SCHEMAS,
    action_result,
    events_page,
    game_over_event,
)
from .schemas import BotOptionsSchema, OneOfRegistered


class _Converter(OpenAPIConverter):
    """Lets a schema that stands for a union document itself (an ``openapi`` class
    method), and a field documented as "one variant's <part>" name them all."""

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        document = getattr(schema, "openapi", None)
        if document is not None:
            union: dict[str, Any] = document()
            return union
        result: dict[str, Any] = super().schema2jsonschema(schema)  # type: ignore[no-untyped-call]
        return result

    def field2property(self, field: fields.Field[Any]) -> dict[str, Any]:
        """As apispec's, but a field documented as a component (metadata ``schema_ref``) is
        a bare reference to it, and the null branch of a nested schema that may be null takes
        null only (``enum: [null]``): left open, it would let any object in, and
        generators would type the field as an untyped map."""
        name = field.metadata.get("schema_ref")
        if name is not None:
            # Documented as a component itself: a bare $ref, which generators type as
            # that schema (an allOf over a union, or an open object beside it, loses
            # its discriminator in some).
            return ref(name)
        prop: dict[str, Any] = super().field2property(field)
        for branch in prop.get("anyOf", ()):
            if branch == {"type": "object", "nullable": True}:
                branch["enum"] = [None]
        return prop

    def init_attribute_functions(self) -> None:
        super().init_attribute_functions()  # type: ignore[no-untyped-call]
        self.add_attribute_function(_variant_part)  # type: ignore[no-untyped-call]
        self.add_attribute_function(_registered_enum)  # type: ignore[no-untyped-call]


def _variant_part(_: Any, field: fields.Field[Any], **__: Any) -> dict[str, Any]:
    part = field.metadata.get("variant_part")
    if part is None:
        return {}
    return {"oneOf": [ref(f"{v.schema_prefix}{part}") for v in variants.registered().values()]}


def _registered_enum(_: Any, field: fields.Field[Any], **__: Any) -> dict[str, Any]:
    for check in field.validators:
        if isinstance(check, OneOfRegistered):
            return {"enum": sorted(check.read())}
    return {}


class VariantsPlugin(MarshmallowPlugin):
    Converter = _Converter


def _camel(kind: str) -> str:
    return "".join(part.title() for part in kind.split("_"))


def _union(spec: APISpec, name: str, by_type: dict[str, str], description: str = "") -> None:
    """A component that is one of the schemas ``by_type`` (type -> $ref), told apart by
    its ``type``."""
    union: dict[str, Any] = {
        "oneOf": [{"$ref": r} for r in by_type.values()],
        "discriminator": {"propertyName": "type", "mapping": by_type},
    }
    if description:
        union["description"] = description
    spec.components.schema(name, union)


def _server_events(spec: APISpec) -> dict[str, str]:
    """Every variant's events include the server's own: registered once, by type."""
    by_type = {}
    for kind, schema in SERVER_EVENT_SCHEMAS.items():
        name = f"{_camel(kind)}Event"
        spec.components.schema(name, {"description": SERVER_EVENT_MEANINGS[kind]}, schema=schema)
        by_type[kind] = ref(name)["$ref"]
    return by_type


def _variant_events(spec: APISpec, variant: Variant, server: dict[str, str]) -> None:
    """``<Prefix>Event``: the server's events and the variant's, and ``game_over`` with the
    variant's result; ``<Prefix>LogEntry``: the entries of its view's log."""
    prefix, parts = variant.schema_prefix, variant.schemas
    spec.components.schema(f"{prefix}Result", schema=parts.result)
    over = f"{prefix}GameOverEvent"
    spec.components.schema(
        over, {"description": SERVER_EVENT_MEANINGS["game_over"]},
        schema=game_over_event(parts.result),
    )  # fmt: skip
    by_type = dict(server, game_over=ref(over)["$ref"])
    for kinds, what in ((parts.events, "Event"), (parts.log, "LogEntry")):
        found = {}
        for kind, schema in kinds.items():
            name = f"{prefix}{_camel(kind)}{what}"
            spec.components.schema(name, {"description": variant.events[kind]}, schema=schema)
            found[kind] = ref(name)["$ref"]
        if what == "Event":
            by_type.update(found)
            _union(spec, f"{prefix}Event", by_type, f"One public event of a {variant.title} game")
        else:
            _union(spec, f"{prefix}LogEntry", found, f"How a {variant.title} game began")


def register(spec: APISpec) -> None:
    """Add every registered variant's schemas, and the unions over them."""
    server = _server_events(spec)
    for variant in variants.registered().values():
        prefix, parts = variant.schema_prefix, variant.schemas
        played = examples.played(variant)
        events = "".join(f"\n- `{kind}`: {meaning}" for kind, meaning in variant.events.items())
        about = f"A game of {variant.title}: {variant.summary}\n\nIts events:{events}"
        shown = {"description": about, "example": played["view"]}
        spec.components.schema(f"{prefix}Options", schema=parts.options)
        _variant_events(spec, variant, server)
        spec.components.schema(f"{prefix}View", shown, schema=parts.view)
        by_type = {}
        for kind, schema in parts.actions.items():
            name = f"{prefix}{kind.title()}Action"
            example = next((a for a in played["legal"] if a["type"] == kind), None)
            extra = {} if example is None else {"example": example}
            spec.components.schema(name, extra, schema=schema)
            by_type[kind] = ref(name)["$ref"]
        _union(spec, f"{prefix}Action", by_type)
        spec.components.schema(f"{prefix}Position", schema=parts.position)
        spec.components.schema(f"{prefix}ActionResult", schema=action_result(prefix))
        spec.components.schema(f"{prefix}Events", schema=events_page(variant.name, prefix))
    # anyOf, not oneOf: the variants share action shapes ({"type": "pass"} is both's), and
    # the game's variant, not the body, says which one a request is.
    spec.components.schema(
        "Action",
        {"anyOf": [ref(f"{v.schema_prefix}Action") for v in variants.registered().values()],
         "description": "One action, in the shape of the game's variant"},
    )  # fmt: skip
    spec.components.schema(
        "BotOptions",
        {"description": 'A bot seat\'s options, e.g. strong: {"iterations": 400, "seconds": 1}; '
         "each bot refuses those it does not take."},
        schema=BotOptionsSchema,
    )  # fmt: skip
