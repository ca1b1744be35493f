"""The rules engine: one façade over both variants, with no I/O, clock or global random.

>>> g = create_game("sequence", players=2, seed=7)
>>> g.status
'active'
"""

from __future__ import annotations

from typing import Any

from .base import Action, Event, Game
from .errors import IllegalAction, SetupError
from .sequence import SequenceGame
from .stacks import StacksGame

VARIANTS: dict[str, Any] = {SequenceGame.variant: SequenceGame, StacksGame.variant: StacksGame}

__all__ = [
    "VARIANTS",
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "SetupError",
    "create_game",
    "load_game",
]


def _variant(name: object) -> Any:
    if not isinstance(name, str) or name not in VARIANTS:
        raise SetupError(
            f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}", "variant"
        )
    return VARIANTS[name]


def create_game(
    variant: str,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    position: dict[str, Any] | None = None,
) -> Game:
    """Start a game: dealt from ``seed``, or from ``position`` (rest shuffled with ``seed``)."""
    if type(seed) is not int:
        raise SetupError("seed must be a whole number", "seed")
    game: Game = _variant(variant).new(players, seed, options, position)
    return game


def load_game(data: dict[str, Any]) -> Game:
    """Rebuild a game from ``Game.to_dict()`` output."""
    game: Game = _variant(data.get("variant")).from_dict(data)
    return game
