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
from ..record import SERVER_EVENTS
from ..variants.fields import ref
from . import examples
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
        """As apispec's, but the null branch of a nested schema that may be null takes
        null only (``enum: [null]``): left open, it would let any object in, and
        generators would type the field as an untyped map."""
        prop: dict[str, Any] = super().field2property(field)
        for branch in prop.get("anyOf", ()):
            if branch == {"type": "object", "nullable": True}:
                branch["enum"] = [None]
        return prop

    def init_attribute_functions(self) -> None:
        super().init_attribute_functions()  # type: ignore[no-untyped-call]
        self.add_attribute_function(_variant_part)  # type: ignore[no-untyped-call]
        self.add_attribute_function(_registered_enum)  # type: ignore[no-untyped-call]
        self.add_attribute_function(_schema_ref)  # type: ignore[no-untyped-call]


def _variant_part(_: Any, field: fields.Field[Any], **__: Any) -> dict[str, Any]:
    part = field.metadata.get("variant_part")
    if part is None:
        return {}
    return {"oneOf": [ref(f"{v.schema_prefix}{part}") for v in variants.registered().values()]}


def _schema_ref(_: Any, field: fields.Field[Any], **__: Any) -> dict[str, Any]:
    """A field documented as a component schema itself (metadata ``schema_ref``): a
    bare $ref, which generators type as that schema (an allOf of a union loses its
    discriminator in some)."""
    name = field.metadata.get("schema_ref")
    return {} if name is None else ref(name)


def _registered_enum(_: Any, field: fields.Field[Any], **__: Any) -> dict[str, Any]:
    for check in field.validators:
        if isinstance(check, OneOfRegistered):
            return {"enum": sorted(check.read())}
    return {}


class VariantsPlugin(MarshmallowPlugin):
    Converter = _Converter


def register(spec: APISpec) -> None:
    """Add every registered variant's schemas, and the unions over them."""
    for variant in variants.registered().values():
        prefix, parts = variant.schema_prefix, variant.schemas
        played = examples.played(variant)
        events = "".join(f"\n- `{kind}`: {meaning}" for kind, meaning in variant.events.items())
        about = f"A game of {variant.title}: {variant.summary}\n\nIts events:{events}"
        shown = {"description": about, "example": played["view"]}
        spec.components.schema(f"{prefix}View", shown, schema=parts.view)
        by_type = {}
        for kind, schema in parts.actions.items():
            name = f"{prefix}{kind.title()}Action"
            example = next((a for a in played["legal"] if a["type"] == kind), None)
            extra = {} if example is None else {"example": example}
            spec.components.schema(name, extra, schema=schema)
            by_type[kind] = ref(name)["$ref"]
        spec.components.schema(
            f"{prefix}Action",
            {"oneOf": [{"$ref": r} for r in by_type.values()],
             "discriminator": {"propertyName": "type", "mapping": by_type}},
        )  # fmt: skip
        spec.components.schema(f"{prefix}Position", schema=parts.position)
        spec.components.schema(f"{prefix}Options", schema=parts.options)
    # anyOf, not oneOf: the variants share action shapes ({"type": "pass"} is both's), and
    # the game's variant, not the body, says which one a request is.
    spec.components.schema(
        "Action",
        {"anyOf": [ref(f"{v.schema_prefix}Action") for v in variants.registered().values()],
         "description": "One action, in the shape of the game's variant"},
    )  # fmt: skip
    spec.components.schema("BotOptions", schema=BotOptionsSchema)
    kinds = set(SERVER_EVENTS) | {k for v in variants.registered().values() for k in v.events}
    spec.components.schema("Event", {
        "type": "object",
        "description": "One public event (docs/api.md lists each type and its fields): the "
        "version of the change that made it, its type, the seat that acted if one did, "
        "and the type's own fields.",
        "properties": {
            "version": {"type": "integer", "minimum": 1},
            "type": {"type": "string", "enum": sorted(kinds)},
            "seat": {"type": "integer", "minimum": 0},
        },
        "required": ["version", "type"],
        "additionalProperties": True,
    })  # fmt: skip
