"""Hints: a seat's best moves from its own view, each with an estimated chance of
winning and a reason in words.

The moves are the search's candidates (the policy's best few), each scored by the
strong bot's search: the mean outcome of its iterations under that move, the
same worlds for every move. Where the search is off (``worth_searching``) the
policy's move comes first and the others follow the variant's ranking; where a
sampled world cannot hold the moment, the chance is the variant's own estimate.
Only the view is read: twin games that differ in cards the seat cannot see give
the same hint for the same random draws.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from .ismcts import search, tuned
from .rollout import action_key, candidates, kit_of

View = dict[str, Any]
MOVES = 3  # a hint shows at most this many moves, best first
SAFETY_S = 20.0


def hint(view: View, rng: random.Random, count: int = MOVES) -> list[dict[str, Any]]:
    """The seat's best moves, best first: ``{"action", "win", "why", "reason"}``."""
    kit = kit_of(view)
    seat = view["you"]["seat"]
    moves = {action_key(a): a for a in candidates(view, kit.tuning.branching)}
    order = list(moves)  # the policy's ranking
    if kit.sampled(view):
        # The strong budget in iterations only: a hint never depends on how busy the
        # worker is (the time cap is a safety net far above what it takes).
        budget = replace(tuned(view, 1.0), seconds=SAFETY_S)
        _, root = search(view, rng, budget, kit.tuning.branching)
        win = {key: node.total / node.visits for key, node in root.children.items()}
    else:
        win = {key: kit.chances(view)[seat] for key in moves}
    if kit.worth_searching(view):
        order.sort(key=lambda key: -win[key])  # stable: ties keep the policy's order
    else:
        first = action_key(kit.policy(view, rng))
        order = [first, *(key for key in order if key != first)] if first in moves else order
    shown = []
    for key in order[:count]:
        reason = kit.explain(view, moves[key])
        shown.append({"action": moves[key], "win": round(min(1.0, max(0.0, win[key])), 3),
                      "why": reason.pop("text"), "reason": reason})  # fmt: skip
    return shown
