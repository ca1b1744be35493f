"""One full game consistent with what a seat sees: the hidden cards dealt at random.

The seat's own hand and everything public come from its view; only the cards it
cannot see are sampled (by the variant, always in the sizes the view shows), and
the world is started from that position through the engine façade.
"""

from __future__ import annotations

import random
from typing import Any

from .. import variants
from ..engine import Game, create_game

View = dict[str, Any]


def sample_world(view: View, rng: random.Random) -> Game:
    """A full game state drawn uniformly from those the view allows."""
    variant = variants.get(view["variant"])
    assert variant is not None, "a view always names a registered variant"
    position = variant.bots.sample_position(view, rng)
    players = len(view["players"])
    return create_game(variant.name, players, rng.getrandbits(62), view["options"], position)
