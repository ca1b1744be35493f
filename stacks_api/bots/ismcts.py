"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS, after Cowling,
Powley and Whitehouse, 2012): the ``strong`` and ``medium`` bots.

One tree of the deciding seat's information sets. An iteration walks down the tree
in a world consistent with the seat's view (the hidden cards dealt at random),
through the moves that are legal in that world, adds one node, plays the rest out
with the variant's policy and scores it; each node keeps, for the seat that made
its move, how often it was tried, its total score and how often it was *available*
(legal in the sampled world), so selection is UCB over availability counts rather
than parent visits. Opponents' moves are nodes of the same tree (single observer):
simpler than one tree per seat (MO-ISMCTS), and a good fit here because what
opponents hide is mostly which card of several they hold, not moves the observer
cannot see.

The root is the exception: its candidate moves are compared on **shared worlds**.
The search goes in rounds; each round samples one world and runs one iteration
under every candidate in it, with the same random draws below each. The hidden
cards a world deals move every candidate's score alike, so pairing the candidates
on the same worlds takes that luck out of their comparison (common random numbers),
while the tree below each candidate still looks ahead. The move played has the
best mean score.

Two things keep the tree small and guided: a node adds children only as its visits
grow (progressive widening, the policy's move first), and the policy's move gets a
bonus that fades with visits (progressive bias). The budget is in iterations, so
the bot's strength does not depend on the machine's load; a time cap is only a
safety net.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any

from .. import variants
from .determinize import sample_world
from .rollout import Key, action_key, candidates, kit_of, playout

View = dict[str, Any]
Action = dict[str, Any]


@dataclass(frozen=True)
class Budget:
    """How much one decision may search, and how it explores."""

    iterations: int
    seconds: float
    exploration: float = 0.7
    widening: float = 1.0  # children allowed: 1 + widening * sqrt(visits)
    bias: float = 0.5  # the policy move's bonus, divided by (visits + 1)
    playout_turns: int = 2


@dataclass(slots=True)
class Node:
    """An information set of the tree, reached by ``mover`` playing an action."""

    mover: int
    visits: int = 0
    total: float = 0.0
    available: int = 0
    prior: float = 0.0  # 1 for the policy's own move where the node was added
    children: dict[Key, Node] = field(default_factory=dict)

    def ucb(self, exploration: float, bias: float) -> float:
        mean = self.total / self.visits
        explore = exploration * math.sqrt(math.log(self.available) / self.visits)
        return mean + explore + bias * self.prior / (self.visits + 1)


def _descend(top: Node, run: variants.Playout, rng: random.Random, budget: Budget) -> list[Node]:
    """Walk down from ``top`` in the sampled world ``run``, playing each move in it,
    until a node is added or the game ends; the nodes passed, ``top`` first."""
    node, path = top, [top]
    while run.game.result is None:
        seat = run.game.to_move[0]
        legal = {action_key(a): a for a in run.game.legal_actions(seat)}
        children = node.children
        present = [k for k in legal if k in children]
        for key in present:
            children[key].available += 1
        if len(present) < len(legal) and (
            not present or len(present) < 1 + budget.widening * math.sqrt(node.visits)
        ):
            key = action_key(run.suggest(rng))
            prior = 1.0
            if key not in legal or key in children:
                key, prior = rng.choice([k for k in legal if k not in children]), 0.0
            child = children[key] = Node(mover=seat, available=1, prior=prior)
            run.play(seat, legal[key])
            path.append(child)
            return path
        key = max(present, key=lambda k: children[k].ucb(budget.exploration, budget.bias))
        run.play(seat, legal[key])
        node = children[key]
        path.append(node)
    return path


def _round(
    root: Node, world: variants.Playout, me: int, moves: dict[Key, Action],
    rng: random.Random, budget: Budget,
) -> None:  # fmt: skip
    """Sample one world and run one iteration under each root move in it. Each starts
    from the same hidden cards and the same random draws (``seed``), so two moves'
    scores differ by what the moves do, not by the deal."""
    dealt = world.fork()
    dealt.redeal(me, rng)  # another world the view allows, without building one anew
    seed = rng.getrandbits(62)
    root.visits += 1  # the root counts rounds
    for key, action in moves.items():
        run, child, same = dealt.fork(), root.children[key], random.Random(seed)
        child.available += 1
        run.play(me, action)
        path = _descend(child, run, same, budget)
        scores = playout(run, same, budget.playout_turns)
        for node in path:
            node.visits += 1
            node.total += scores[node.mover]


def search(
    view: View, rng: random.Random, budget: Budget, branching: int, include: Action | None = None
) -> tuple[Action, Node]:
    """The best-scoring of the seat's ``branching`` best legal actions (and ``include``,
    an action to score beside them), and the tree. ``budget.iterations`` is split
    into rounds of one iteration per candidate."""
    kit = kit_of(view)
    me = view["you"]["seat"]
    moves = {action_key(a): a for a in candidates(view, branching)}
    if include is not None:
        moves.setdefault(action_key(include), include)
    root = Node(mover=-1, children={key: Node(mover=me) for key in moves})
    world = kit.playout(sample_world(view, random.Random(rng.getrandbits(62))))
    deadline = time.perf_counter() + budget.seconds
    for _ in range(max(1, budget.iterations // len(moves))):
        if root.visits and time.perf_counter() > deadline:
            break  # the safety net: at least one round is always made
        _round(root, world, me, moves, rng, budget)
    # Ties go to the policy's order (the candidates' order): max keeps the first.
    best = max(moves, key=lambda k: root.children[k].total / root.children[k].visits)
    return moves[best], root


def tuned(view: View, strength: float) -> Budget:
    """The variant's budget for the ``strong`` bot, its iterations scaled by ``strength``."""
    tuning = kit_of(view).tuning
    return Budget(
        iterations=max(1, int(tuning.iterations * strength)),
        seconds=tuning.seconds,
        exploration=tuning.exploration,
        playout_turns=tuning.playout_turns,
    )


def tree_bot(view: View, rng: random.Random, strength: float = 1.0, **options: Any) -> Action:
    """Search from this view; ``iterations`` and ``seconds`` override the budget."""
    legal = view["you"]["legal_actions"]
    if len({action_key(a) for a in legal}) == 1:
        only: Action = legal[0]
        return only
    kit = kit_of(view)
    if not kit.worth_searching(view):
        return kit.policy(view, rng)
    # The API lets a seat set iterations and seconds; tournaments may try the rest.
    budget = replace(tuned(view, strength), **options)
    action, _ = search(view, rng, budget, kit.tuning.branching)
    return action
