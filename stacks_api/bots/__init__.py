"""Computer players. A bot sees only its own seat's view, never the full state.

Each bot is a function ``(view, rng) -> action`` over the engine's view of its
seat (``view["you"]["legal_actions"]`` included); the server calls it whenever
a bot seat is in ``to_move``, block windows included.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .greedy import greedy_bot
from .simple import random_bot

Bot = Callable[[dict[str, Any], random.Random], dict[str, Any]]

BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}


def choose(name: str, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The action bot ``name`` takes from ``view``."""
    return BOTS[name](view, rng)
