"""The rules engine: one façade over every variant, with no I/O, clock or global random.

>>> g = create_game("sequence", players=2, seed=7)
>>> g.status
'active'

Each variant's rules live in its package under ``stacks_api/variants``, built from
the kit in ``stacks_api/rules``; this façade finds them through the variant registry.
"""

from __future__ import annotations

from typing import Any

from .. import variants
from ..rules.base import Action, Event, Game
from ..rules.errors import IllegalAction, SetupError

__all__ = [
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "SetupError",
    "create_game",
    "game_class",
    "load_game",
    "restore_game",
]


def game_class(name: object) -> type[Game]:
    """The rules of the variant called ``name``."""
    variant = variants.get(name)
    if variant is None:
        raise SetupError(
            f"unknown variant {name!r}; choose one of {', '.join(variants.names())}", "variant"
        )
    return variant.game


def create_game(
    variant: str,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    position: dict[str, Any] | None = None,
    dealer: int | None = None,
) -> Game:
    """Start a game: dealt from ``seed``, or from ``position`` (rest shuffled with ``seed``).
    ``dealer`` deals instead of the one the rules would choose (the next game of a
    table: the deal passes on one seat)."""
    if type(seed) is not int:
        raise SetupError("seed must be a whole number", "seed")
    return game_class(variant).new(players, seed, options, position, dealer)


def load_game(data: dict[str, Any]) -> Game:
    """Rebuild a game from ``Game.to_dict()`` output, checking it like a position."""
    return game_class(data.get("variant")).from_dict(data)


def restore_game(data: dict[str, Any]) -> Game:
    """Rebuild a game from ``to_dict`` output this program wrote itself (the server's
    own store): trusted, so nothing is checked again. Anything from outside goes
    through ``load_game``."""
    return game_class(data["variant"]).from_dict(data, trusted=True)
