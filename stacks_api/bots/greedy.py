"""The greedy bot: each variant's fast heuristic."""

from __future__ import annotations

import random
from typing import Any

from . import sequence_greedy, stacks_greedy


def greedy_bot(view: dict[str, Any], rng: random.Random, **_: Any) -> dict[str, Any]:
    """The best action by the variant's heuristic."""
    if view["variant"] == "sequence":
        return sequence_greedy.choose(view, rng)
    return stacks_greedy.choose(view, rng)
