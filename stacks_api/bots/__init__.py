"""Computer players. A bot sees only its own seat's view, never the full state.

Each bot is a function ``(view, rng) -> action`` over the engine's view of its
seat (``view["you"]["legal_actions"]`` included); the server calls it whenever
a bot seat is in ``to_move``, block windows included.

The ladder, each level clearly stronger than the one below (docs/bots.md has
their measured results): ``beginner`` and ``easy``, the greedy heuristic with
plausible mistakes, often and now and then (``sloppy``); ``medium``, each
variant's greedy heuristic; ``strong``, the tree search (``ismcts``) at its
tuned budget. ``random`` (any legal action) stays for tests. The earlier names
stay accepted: ``greedy`` (medium, the heuristic it always named), ``pimc`` and
``mcts`` (strong, the search).
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
from .sloppy import sloppy_bot

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
    "random": {}, "beginner": {}, "easy": {}, "medium": {}, "strong": SEARCH_OPTIONS,
}  # fmt: skip
# How often the lower rungs play a plausible lesser move instead of greedy's (tuned
# on seeds below 20,000 so that each rung beats the one below it; docs/bots.md).
BEGINNER_MISTAKES = 0.6
EASY_MISTAKES = 0.25

BOTS: dict[str, Bot] = {
    "random": random_bot,
    "beginner": partial(sloppy_bot, mistakes=BEGINNER_MISTAKES),
    "easy": partial(sloppy_bot, mistakes=EASY_MISTAKES),
    "medium": greedy_bot,
    "strong": tree_bot,
}
# Earlier names, still accepted everywhere a bot is named (and kept as given in views).
ALIASES = {"greedy": "medium", "pimc": "strong", "mcts": "strong"}
# The ladder from the bottom, as players choose it (``random`` is for tests).
LADDER = ("beginner", "easy", "medium", "strong")
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
