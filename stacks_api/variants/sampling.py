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


def deal_again(
    hands: list[list[str]], seat: int, draw: list[str], rng: random.Random
) -> tuple[list[list[str]], list[str]]:
    """The cards ``seat`` cannot see in a (sampled) game, the other seats' hands and the
    draw pile, shuffled and dealt anew in their sizes; ``seat``'s hand is kept. A search
    copies one sampled world and redeals it for each iteration: cheaper than sampling a
    world again. Returns the hands and the draw pile."""
    pool = [c for s, hand in enumerate(hands) if s != seat for c in hand] + draw
    # Sorted by random keys: as uniform as shuffle, twice as quick (it runs every iteration).
    pool.sort(key=lambda _: rng.random())
    dealt = [hand if s == seat else [pool.pop() for _ in hand] for s, hand in enumerate(hands)]
    return dealt, pool


def sigmoid(x: float) -> float:
    """From any score difference to (0, 1), bounded so that no exp overflows."""
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))
