"""The games the server plays, each a plug-in: one package under ``variants/`` holding
its rules (a ``Game`` subclass), its bots' knowledge, its API schemas and examples,
described by one ``Variant`` (``kit.py``) and registered here.

Nothing outside the variant packages names a variant: the engine façade, the
service, the store, the API, the CLI and the bots all look variants up here.
``register`` adds another (a test does, with a toy game).
"""

from __future__ import annotations

from collections.abc import Mapping

from . import sequence, stacks
from .kit import JSON, Action, Bots, Examples, Playout, Schemas, Tuning, Variant, View, example

__all__ = [
    "JSON", "Action", "Bots", "Examples", "Playout", "Schemas", "Tuning", "Variant", "View",
    "example", "get", "names", "register", "registered", "unregister",
]  # fmt: skip

_registry: dict[str, Variant] = {v.name: v for v in (sequence.VARIANT, stacks.VARIANT)}


def register(variant: Variant) -> None:
    """Make ``variant`` playable everywhere; its name must be new."""
    if variant.name in _registry and _registry[variant.name] is not variant:
        raise ValueError(f"a variant named {variant.name!r} is already registered")
    _registry[variant.name] = variant


def unregister(name: str) -> None:
    """Forget a variant registered with ``register`` (tests clean up with this)."""
    _registry.pop(name, None)


def registered() -> Mapping[str, Variant]:
    """Every registered variant by name, the built-in ones first."""
    return _registry


def get(name: object) -> Variant | None:
    """The variant called ``name``, if there is one."""
    return _registry.get(name) if isinstance(name, str) else None


def names() -> list[str]:
    return list(_registry)
