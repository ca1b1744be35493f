"""Helpers a variant's bots share: dealing the cards a view hides, and squashing a
score into (0, 1)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable

from .kit import View


def unseen(deck: Iterable[str], seen: Iterable[str], rng: random.Random) -> list[str]:
    """The cards of ``deck`` the view does not show (``seen`` shown), shuffled."""
    left = Counter(deck)
    left.subtract(seen)
    pool = sorted(left.elements())
    rng.shuffle(pool)
    return pool


def deal_hidden(view: View, pool: list[str]) -> list[list[str]]:
    """Each seat's hand: the viewer's own, every other drawn from the end of ``pool``
    in the size the view shows."""
    me = view["you"]["seat"]
    return [
        list(view["you"]["hand"])
        if p["seat"] == me
        else [pool.pop() for _ in range(p["hand_size"])]
        for p in view["players"]
    ]


def hidden_from(hands: list[list[str]], seat: int, *heaps: list[str]) -> list[str]:
    """The cards ``seat`` cannot see in a (sampled) game: the other seats' hands and the
    hidden ``heaps`` (the draw pile, ...), as one list."""
    pool = [c for s, hand in enumerate(hands) if s != seat for c in hand]
    for heap in heaps:
        pool += heap
    return pool


def deal_again(hands: list[list[str]], seat: int, pool: list[str]) -> list[list[str]]:
    """``seat``'s hand kept, every other hand drawn anew from the end of ``pool`` in its
    size. A search copies one sampled world and redeals it for each iteration: cheaper
    than sampling a world again."""
    return [hand if s == seat else [pool.pop() for _ in hand] for s, hand in enumerate(hands)]


def sigmoid(x: float) -> float:
    """From any score difference to (0, 1), bounded so that no exp overflows."""
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))
