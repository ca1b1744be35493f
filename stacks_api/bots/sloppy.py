"""The lower rungs of the ladder: the greedy heuristic with plausible mistakes.

A person who is learning does not play at random: they see most of what greedy
sees and now and then pick a move that looks good but is not the best. So a
sloppy bot plays greedy's move, except that with probability ``mistakes`` it
plays one of the next few moves by the variant's own ranking (``PLAUSIBLE``),
each as likely. ``beginner`` makes a mistake often, ``easy`` now and then.
"""

from __future__ import annotations

import random
from typing import Any

from .. import variants

PLAUSIBLE = 4  # a mistake is one of the moves ranked 2nd to 5th


def sloppy_bot(view: dict[str, Any], rng: random.Random, mistakes: float = 0.5,
               **_: Any) -> dict[str, Any]:  # fmt: skip
    """Greedy's move, or with probability ``mistakes`` a plausible lesser one."""
    variant = variants.get(view["variant"])
    assert variant is not None, "a view always names a registered variant"
    legal = view["you"]["legal_actions"]
    if len(legal) < 2 or mistakes <= 0 or rng.random() >= mistakes:
        return variant.bots.greedy(view, rng)
    score = variant.bots.rank(view)
    ranked = sorted(legal, key=score, reverse=True)
    action: dict[str, Any] = rng.choice(ranked[1 : 1 + PLAUSIBLE])
    return action
