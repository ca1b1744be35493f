"""Perfect-information Monte Carlo (PIMC): flat sampling over determinized worlds,
from one seat's view. There is no search tree: the bot was first called ``mcts``,
a name still accepted.

Each iteration deals the hidden cards at random, consistently with the view
(``determinize``), and plays every candidate action in that same world, each
followed by the same playout of ``policy`` moves: the candidates are compared on
common worlds, so the luck of the draw cancels out of the comparison instead of
drowning it. A playout runs as many turns as the variant's tuning says, then is
scored: by the outcome once the game is over, else by the variant's estimate. The
move with the best total wins, but the policy's own move is kept unless a searched
one beats it by a margin. What the search knows of a game (its policy, how to sample
and play out a world, its tuning) is the variant's: ``Variant.bots``.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from .. import variants
from .determinize import sample_world
from .evaluate import scores

View = dict[str, Any]
Action = dict[str, Any]

PLAYOUT_ACTIONS = 3_000  # turns can last long in some variants: bound every playout


def _key(action: Action) -> str:
    return json.dumps(action, sort_keys=True)


def _bots(view: View) -> variants.Bots:
    variant = variants.get(view["variant"])
    assert variant is not None, "a view always names a registered variant"
    return variant.bots


def candidates(view: View, branching: int) -> list[Action]:
    """The seat's distinct legal actions, the policy's best ``branching`` of them."""
    distinct = list({_key(a): a for a in view["you"]["legal_actions"]}.values())
    value = _bots(view).rank(view)
    distinct.sort(key=lambda a: -value(a))
    return distinct[:branching]


def policy(view: View, rng: random.Random) -> Action:
    """The fast move the search starts from and plays out with."""
    return _bots(view).policy(view, rng)


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


def search(view: View, rng: random.Random, iterations: int, seconds: float) -> Action:
    """The candidate with the best total over sampled worlds, or the policy's move."""
    me = view["you"]["seat"]
    kit = _bots(view)
    tuning = kit.tuning
    options = candidates(view, tuning.branching)
    default = kit.policy(view, rng)
    totals = [0.0] * len(options)
    deadline = time.perf_counter() + seconds
    worlds = 0
    while worlds < iterations and time.perf_counter() < deadline:
        seed = rng.getrandbits(62)
        world = kit.playout(sample_world(view, random.Random(seed)))
        for i, action in enumerate(options):
            run = world.fork()
            run.play(me, action)
            # The same playout seed for every candidate: common worlds, common luck.
            totals[i] += playout(run, random.Random(seed), tuning.playout_turns)[me]
        worlds += 1
    best = max(range(len(options)), key=totals.__getitem__)
    fallback = next((i for i, a in enumerate(options) if _key(a) == _key(default)), None)
    if fallback is None or totals[best] - totals[fallback] > tuning.margin * worlds:
        return options[best]
    return default


def pimc_bot(view: View, rng: random.Random, **options: Any) -> Action:
    """Search from this view; ``iterations`` (sampled worlds) and ``seconds`` bound it."""
    legal = view["you"]["legal_actions"]
    if len(legal) == 1:
        action: Action = legal[0]
        return action
    kit = _bots(view)
    if not kit.worth_searching(view):
        return kit.policy(view, rng)
    iterations = int(options.get("iterations", kit.tuning.iterations))
    seconds = float(options.get("seconds", kit.tuning.seconds))
    return search(view, rng, iterations, seconds)
