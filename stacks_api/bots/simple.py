"""The plainest opponent."""

from __future__ import annotations

import random
from typing import Any


def random_bot(view: dict[str, Any], rng: random.Random, **_: Any) -> dict[str, Any]:
    """A uniformly random legal action."""
    action: dict[str, Any] = rng.choice(view["you"]["legal_actions"])
    return action
