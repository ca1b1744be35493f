"""The greedy bot: each variant's fast heuristic."""

from __future__ import annotations

import random
from typing import Any

from .. import variants


def greedy_bot(view: dict[str, Any], rng: random.Random, **_: Any) -> dict[str, Any]:
    """The best action by the variant's heuristic."""
    variant = variants.get(view["variant"])
    assert variant is not None, "a view always names a registered variant"
    return variant.bots.greedy(view, rng)
