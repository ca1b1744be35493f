"""What the tree search plays with: the candidates it considers at the root, the
policy's move, and playouts of a sampled world. What the search knows of a game (its
policy, how to sample and play out a world, its tuning) is the variant's:
``Variant.bots``.
"""

from __future__ import annotations

import random
from typing import Any

from .. import variants
from ..rules.prebuilt import key_of
from .evaluate import scores

View = dict[str, Any]
Action = dict[str, Any]

Key = tuple[Any, ...]

PLAYOUT_ACTIONS = 3_000  # turns can last long in some variants: bound every playout


def kit_of(view: View) -> variants.Bots:
    """What the view's variant tells the bots."""
    variant = variants.get(view["variant"])
    assert variant is not None, "a view always names a registered variant"
    return variant.bots


def action_key(action: Action) -> Key:
    """A hashable key of an action, equal for equal actions. Needed for every legal
    action at every step of the tree: a prebuilt action (what engines hand out) carries
    its key, so only a plain dict (a view's, read from JSON) has one built."""
    key: Key | None = getattr(action, "key", None)
    return key if key is not None else key_of(action)


def candidates(view: View, branching: int) -> list[Action]:
    """The seat's distinct legal actions, the policy's best ``branching`` of them."""
    distinct = list({action_key(a): a for a in view["you"]["legal_actions"]}.values())
    value = kit_of(view).rank(view)
    distinct.sort(key=lambda a: -value(a))
    return distinct[:branching]


def policy(view: View, rng: random.Random) -> Action:
    """The fast move the search starts from and plays out with."""
    return kit_of(view).policy(view, rng)


def playout(run: variants.Playout, rng: random.Random, turns: int) -> list[float]:
    """Play policy moves until who is to move has changed ``turns`` times (a turn, or a
    block window opening or closing) or the game ended; score the position."""
    game = run.game
    start, changes = game.to_move, 0
    for _ in range(PLAYOUT_ACTIONS):
        if game.result is not None or changes >= turns:
            break
        run.move(rng)
        if game.to_move != start:
            changes, start = changes + 1, game.to_move
    return scores(run)
