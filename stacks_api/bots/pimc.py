"""Perfect-information Monte Carlo (PIMC): flat sampling over determinized worlds,
from one seat's view. There is no search tree: the bot was first called ``mcts``,
a name still accepted.

Each iteration deals the hidden cards at random, consistently with the view
(``determinize``), and plays every candidate action in that same world, each
followed by the same playout of ``policy`` moves: the candidates are compared on
common worlds, so the luck of the draw cancels out of the comparison instead of
drowning it. A playout runs a few turns and is scored by ``evaluate`` (Sequence),
or runs to the end of the game (Stacks, whose chips come late). The move with the
best total wins, but the policy's own move is kept unless a searched one beats it
by a margin.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from typing import Any

from ..engine import Game
from ..engine.sequence.game import SequenceGame
from . import sequence_greedy, stacks_greedy
from .determinize import sample_world
from .evaluate import scores

View = dict[str, Any]
Action = dict[str, Any]

PLAYOUT_ACTIONS = 3_000  # a Stacks turn can last for ever: bound every playout


@dataclass(frozen=True)
class Tuning:
    """Per variant: sampled worlds by default, how many candidate actions are searched,
    the playout length (changes of who is to move), the mean score by which a
    searched move must beat the policy's before it replaces it, and the default time cap
    of one decision in seconds."""

    iterations: int
    branching: int
    playout_turns: int
    margin: float
    seconds: float


TUNING = {
    # Sequence: the opponent's reply and our next greedy move, then the position score.
    # Against greedy (seeds 0-199) it won 124 games, where playouts of 4 or 6 changes
    # of who is to move won 119 and 120, at a third of their cost.
    "sequence": Tuning(iterations=80, branching=6, playout_turns=2, margin=0.01, seconds=0.8),
    # Stacks: playouts to the end of the game, where its chips are won. A searched move
    # must beat the policy's by 5 points of mean score (measured: with 24 worlds, small
    # margins let the luck of the draw override the policy, and lost).
    "stacks": Tuning(iterations=48, branching=8, playout_turns=1_000, margin=0.05, seconds=0.8),
}

# Stacks is searched once fewer cards than this are left in the draw pile: between
# greedy players, three chips in four are won from then on. Before, a playout to the
# end is long and says little, and the policy's choice stands. (The set-aside heap, which
# refills the draw pile, does not count: with it, the search never ran at all in 42 of
# 200 games between greedy players.)
STACKS_SEARCH_BELOW = 40


def _key(action: Action) -> str:
    return json.dumps(action, sort_keys=True)


def candidates(view: View, branching: int) -> list[Action]:
    """The seat's distinct legal actions, the policy's best ``branching`` of them."""
    distinct = list({_key(a): a for a in view["you"]["legal_actions"]}.values())
    if view["variant"] == "sequence":
        board, team = sequence_greedy.Board.of_view(view), view["you"]["team"]
        distinct.sort(key=lambda a: -sequence_greedy.score(board, a, team))
    else:
        distinct.sort(key=lambda a: -stacks_greedy.score(view, a, stacks_greedy.FEEDING))
    return distinct[:branching]


def policy(view: View, rng: random.Random) -> Action:
    """The fast move the search starts from and plays out with: greedy's in Sequence;
    in Stacks, the same heuristic in its feeding style (stronger than greedy's own)."""
    if view["variant"] == "stacks":
        return stacks_greedy.choose(view, rng, stacks_greedy.FEEDING)
    return sequence_greedy.choose(view, rng)


class ViewPlayout:
    """Moves of ``policy`` chosen from each seat's view of a sampled game."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def fork(self) -> ViewPlayout:
        """An independent copy, to try another move from the same position."""
        return ViewPlayout(self.game.copy())

    def play(self, seat: int, action: Action) -> None:
        self.game.apply(seat, action)

    def move(self, rng: random.Random) -> None:
        seat = self.game.to_move[0]
        self.play(seat, policy(self.game.view(seat), rng))


Playout = ViewPlayout | sequence_greedy.Playout


def start_playout(world: Game) -> Playout:
    """Sequence plays out on a board kept up to date (faster than views); Stacks on views."""
    return sequence_greedy.Playout(world) if isinstance(world, SequenceGame) else ViewPlayout(world)


def playout(run: Playout, rng: random.Random, turns: int) -> list[float]:
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
    return scores(game, run.board if isinstance(run, sequence_greedy.Playout) else None)


def search(view: View, rng: random.Random, iterations: int, seconds: float) -> Action:
    """The candidate with the best total over sampled worlds, or the policy's move."""
    me = view["you"]["seat"]
    tuning = TUNING[view["variant"]]
    options = candidates(view, tuning.branching)
    default = policy(view, rng)
    totals = [0.0] * len(options)
    deadline = time.perf_counter() + seconds
    worlds = 0
    while worlds < iterations and time.perf_counter() < deadline:
        seed = rng.getrandbits(62)
        world = start_playout(sample_world(view, random.Random(seed)))
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
    if view.get("block_window"):
        return policy(view, rng)  # block whenever possible: nothing to search
    if view["variant"] == "stacks" and (
        view["draw_pile_count"] >= STACKS_SEARCH_BELOW
        # The policy completes a pile when it can, and no searched move beats a chip.
        or any(stacks_greedy.completes(view, a) for a in legal)
    ):
        return policy(view, rng)
    tuning = TUNING[view["variant"]]
    iterations = int(options.get("iterations", tuning.iterations))
    seconds = float(options.get("seconds", tuning.seconds))
    return search(view, rng, iterations, seconds)
