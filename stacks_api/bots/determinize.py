"""One full game consistent with what a seat sees: the hidden cards dealt at random.

The seat's own hand, the board or piles, every discard pile and every count come
from its view; only the cards it cannot see (the other hands, the draw pile and,
in Stacks, the set-aside heap) are sampled, and always in the sizes the view shows.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..engine import Game, create_game
from ..engine.sequence.setup import DECK as SEQUENCE_DECK
from ..engine.stacks.cards import COLOURED_CARDS, deck_for

View = dict[str, Any]


def _unseen(deck: list[str] | tuple[str, ...], seen: list[str]) -> list[str]:
    left = Counter(deck)
    left.subtract(seen)
    return sorted(left.elements())


def _deal_hands(view: View, pool: list[str]) -> list[list[str]]:
    me = view["you"]["seat"]
    hands = []
    for player in view["players"]:
        if player["seat"] == me:
            hands.append(list(view["you"]["hand"]))
        else:
            hands.append([pool.pop() for _ in range(player["hand_size"])])
    return hands


def sequence_world(view: View, rng: random.Random) -> Game:
    seen = list(view["you"]["hand"]) + [c for pile in view["discards"] for c in pile]
    pool = _unseen(SEQUENCE_DECK, seen)
    rng.shuffle(pool)
    position = {
        "board": view["board"],
        "sequences": view["sequences"],
        "hands": _deal_hands(view, pool),
        "discards": view["discards"],
        "draw_pile": pool,
        "turn": view["turn"],
    }
    game = create_game("sequence", len(view["players"]), rng.getrandbits(62), view["options"],
                       position)  # fmt: skip
    game.exchanged = view["exchanged"]  # type: ignore[attr-defined]
    game.passes = view["passes"]  # type: ignore[attr-defined]
    return game


def stacks_world(view: View, rng: random.Random) -> Game:
    players = len(view["players"])
    seen = (
        list(view["you"]["hand"])
        + [c for pile in view["piles"] for c in pile]
        + [c for pile in view["discards"] for c in pile]
        + list(view["special_discard"])
    )
    pool = _unseen(deck_for(players), seen)
    rng.shuffle(pool)
    # The set-aside heap holds completed piles: coloured cards only.
    coloured = [c for c in pool if c in COLOURED_CARDS][: view["set_aside_count"]]
    for card in coloured:
        pool.remove(card)
    position = {
        "piles": view["piles"],
        "hands": _deal_hands(view, pool),
        "discards": view["discards"],
        "chips": view["chips"],
        "set_aside": coloured,
        "special_discard": view["special_discard"],
        "draw_pile": pool,
        "direction": view["direction"],
        "skips": [p["skips"] for p in view["players"]],
        "turn": view["turn"],
        "plays": view["plays"],
    }
    game = create_game("stacks", players, rng.getrandbits(62), view["options"], position)
    game.turns = view["turns"]  # type: ignore[attr-defined]
    return game


def sample_world(view: View, rng: random.Random) -> Game:
    """A full game state drawn uniformly from those the view allows."""
    return sequence_world(view, rng) if view["variant"] == "sequence" else stacks_world(view, rng)
