"""Information-set Monte Carlo tree search from one seat's view (single observer).

Each iteration samples a full game consistent with the view (``determinize``),
walks one shared tree of actions down through it, choosing among the children
legal in that sample by UCB (counting how often each was available), expands
one new action, plays a few greedy moves on and scores the result for every
seat (``evaluate``). Branching is cut to greedy's best few actions per node.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass
from typing import Any

from ..engine import Game
from . import sequence_greedy, stacks_greedy
from .determinize import sample_world
from .evaluate import scores
from .greedy import greedy_bot

View = dict[str, Any]
Action = dict[str, Any]

DEFAULT_SECONDS = 0.8
EXPLORATION = 0.7
BRANCHING = 6


@dataclass(frozen=True)
class Tuning:
    """Per variant: default iterations, rollout length in turns, and the margin by
    which a searched move's mean must beat greedy's move before it replaces it
    (Stacks samples are noisier: its luck of the draw is larger)."""

    iterations: int
    rollout_turns: int
    margin: float


TUNING = {"sequence": Tuning(400, 4, 0.03), "stacks": Tuning(400, 4, 0.05)}


class Node:
    __slots__ = ("action", "available", "children", "parent", "seat", "total", "visits")

    def __init__(self, parent: Node | None, action: Action | None, seat: int) -> None:
        self.parent, self.action, self.seat = parent, action, seat  # seat: who took action
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0

    def ucb(self) -> float:
        mean = self.total / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(max(1, self.available)) / self.visits)


def _key(action: Action) -> str:
    return json.dumps(action, sort_keys=True)


def candidates(game: Game, seat: int) -> list[Action]:
    """The acting seat's best few actions by the greedy heuristic."""
    view = game.view(seat)
    legal = view["you"]["legal_actions"]
    if len(legal) <= BRANCHING:
        return list(legal)
    if game.variant == "sequence":
        board = sequence_greedy.Board(view)
        team = view["you"]["team"]
        ranked = sorted(legal, key=lambda a: -sequence_greedy.score(board, a, team))
    else:
        ranked = sorted(legal, key=lambda a: -stacks_greedy.score(view, a))
    return ranked[:BRANCHING]


def rollout(game: Game, rng: random.Random, turns: int) -> list[float]:
    """Play greedy moves until who is to move has changed ``turns`` times (a turn, or a
    block window opening or closing) or the game ended; score the position."""
    start_turn, changes = game.to_move, 0
    for _ in range(200):
        if game.result is not None or changes >= turns:
            break
        seat = game.to_move[0]
        game.apply(seat, greedy_bot(game.view(seat), rng))
        if game.to_move != start_turn:
            changes, start_turn = changes + 1, game.to_move
    return scores(game)


def search(view: View, rng: random.Random, iterations: int, seconds: float) -> Action:
    me = view["you"]["seat"]
    root = Node(None, None, me)
    deadline = time.perf_counter() + seconds
    tuning = TUNING[view["variant"]]
    for _ in range(iterations):
        if time.perf_counter() > deadline:
            break
        game = sample_world(view, rng)
        node = root
        while game.result is None:
            seat = game.to_move[0]
            options = candidates(game, seat)
            fresh = [a for a in options if _key(a) not in node.children]
            if fresh:
                action = rng.choice(fresh)
                child = Node(node, action, seat)
                node.children[_key(action)] = child
                game.apply(seat, action)
                node = child
                break
            present = [node.children[_key(a)] for a in options]
            for child in present:
                child.available += 1
            node = max(present, key=Node.ucb)
            assert node.action is not None
            game.apply(seat, node.action)
        result = rollout(game, rng, tuning.rollout_turns)
        while node is not None:
            node.visits += 1
            node.total += result[node.seat]
            node = node.parent  # type: ignore[assignment]
    return _decide(root, greedy_bot(view, rng), tuning.margin)


def _decide(root: Node, default: Action, margin: float) -> Action:
    """The most promising well-tried move, if clearly better than greedy's."""
    tried = [n for n in root.children.values() if n.visits]
    if not tried:
        return default
    most = max(n.visits for n in tried)
    solid = [n for n in tried if n.visits >= most / 3]
    best = max(solid, key=lambda n: n.total / n.visits)
    fallback = root.children.get(_key(default))
    if (
        fallback is not None
        and fallback.visits
        and (best.total / best.visits - fallback.total / fallback.visits < margin)
    ):
        return default
    assert best.action is not None
    return best.action


def mcts_bot(view: View, rng: random.Random, **options: Any) -> Action:
    """Search from this view; ``iterations`` and ``seconds`` bound the effort."""
    legal = view["you"]["legal_actions"]
    if len(legal) == 1:
        action: Action = legal[0]
        return action
    if view.get("block_window"):
        return greedy_bot(view, rng)  # block whenever possible: nothing to search
    iterations = int(options.get("iterations", TUNING[view["variant"]].iterations))
    seconds = float(options.get("seconds", DEFAULT_SECONDS))
    return search(view, rng, iterations, seconds)
