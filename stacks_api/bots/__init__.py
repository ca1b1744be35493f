"""Computer players. A bot sees only its own seat's view, never the full state.

Each bot is a function ``(view, rng) -> action`` over the engine's view of its
seat (``view["you"]["legal_actions"]`` included); the server calls it whenever
a bot seat is in ``to_move``, block windows included.

The levels: ``random``; ``easy``, each variant's greedy heuristic; ``medium`` and
``strong``, the tree search (``ismcts``) at a quarter of and at its tuned budget.
The earlier names stay accepted: ``greedy`` (easy), ``pimc`` and ``mcts``
(medium: the flat search they named is gone).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from .greedy import greedy_bot
from .ismcts import tree_bot
from .simple import random_bot

Bot = Callable[..., dict[str, Any]]  # (view, rng, **options) -> action


@dataclass(frozen=True)
class Option:
    """One option a bot takes: its type, its allowed range and what it means. The API's
    schema of bot options and its checks are built from these."""

    kind: type[int] | type[float]
    low: float
    high: float
    meaning: str


# The options each bot takes. A bot thinks at most 2 s a decision, whatever a seat asks.
SEARCH_OPTIONS = {
    "iterations": Option(int, 1, 5_000, "search iterations a decision (the budget)"),
    "seconds": Option(float, 0.01, 2.0, "most thinking time a decision (a safety net)"),
}
OPTIONS: dict[str, dict[str, Option]] = {
    "random": {}, "easy": {}, "medium": SEARCH_OPTIONS, "strong": SEARCH_OPTIONS,
}  # fmt: skip
MEDIUM = 0.25  # of the strong bot's iterations

BOTS: dict[str, Bot] = {
    "random": random_bot, "easy": greedy_bot,
    "medium": partial(tree_bot, strength=MEDIUM), "strong": tree_bot,
}  # fmt: skip
# Earlier names, still accepted everywhere a bot is named (and kept as given in views).
ALIASES = {"greedy": "easy", "pimc": "medium", "mcts": "medium"}
NAMES = [*BOTS, *ALIASES]


def canonical(name: str) -> str:
    return ALIASES.get(name, name)


def choose(
    name: str, view: dict[str, Any], rng: random.Random, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The action bot ``name`` (or an alias) takes from ``view``."""
    return BOTS[canonical(name)](view, rng, **(options or {}))


def check_options(name: str, options: dict[str, Any]) -> str | None:
    """Why ``options`` do not suit bot ``name``, or None when they do."""
    allowed = OPTIONS[canonical(name)]
    for key, value in options.items():
        if key not in allowed:
            return f"the {name} bot takes no option {key!r}"
        option = allowed[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"{key} must be a number"
        if option.kind is int and not isinstance(value, int):
            return f"{key} must be a whole number"
        if not option.low <= value <= option.high:
            return f"{key} must be from {option.low:g} to {option.high:g}"
    return None
