"""The tree search (``strong``): its statistics on a position small enough to work out
by hand, and its budget."""

from __future__ import annotations

import json
import random

import pytest

from stacks_api import variants
from stacks_api.bots import ismcts
from stacks_api.engine import create_game

from ..variants.nim import NIM


@pytest.fixture
def nim():
    variants.register(NIM)
    yield
    variants.unregister(NIM.name)


def two_stones():
    """Seat 0 to move with two stones left: taking both wins at once; taking one
    leaves one, which seat 1 must take, and seat 1 wins."""
    return create_game("nim", players=2, seed=1, position={"stones": 2, "turn": 0})


def test_the_tree_after_three_iterations_is_what_a_hand_calculation_says(nim):
    budget = ismcts.Budget(iterations=3, seconds=60, exploration=0.7, widening=1.0, bias=0.0)
    action, root = ismcts.search(two_stones().view(0), random.Random(0), budget, branching=3)
    take = {key[-1]: node for key, node in root.children.items()}  # ("type", "count", "take", n)
    # 1: the policy's move (take 2) is added first: a win, score 1 for seat 0.
    # 2: with one child, the room for 1 + sqrt(1) = 2 adds take 1: seat 1 then takes
    #    the last stone, score 0.
    # 3: UCB with availability counts 3 and 2: 1 + 0.7 sqrt(ln 3) > 0 + 0.7 sqrt(ln 2).
    assert (take[2].visits, take[2].total, take[2].available) == (2, 2.0, 3)
    assert (take[1].visits, take[1].total, take[1].available) == (1, 0.0, 2)
    assert take[1].children == {} and root.visits == 3
    assert action == {"type": "take", "count": 2}


def test_the_replies_are_nodes_of_the_same_tree(nim):
    budget = ismcts.Budget(iterations=40, seconds=60, widening=5.0)
    game = create_game("nim", players=2, seed=1, position={"stones": 3, "turn": 0})
    action, root = ismcts.search(game.view(0), random.Random(0), budget, branching=3)
    assert action == {"type": "take", "count": 3}  # takes the last three
    reply = root.children[ismcts.action_key({"type": "take", "count": 1})]
    assert {child.mover for child in reply.children.values()} == {1}
    assert sum(c.visits for c in root.children.values()) == root.visits == 40


@pytest.mark.parametrize("iterations", [1, 7, 50])
def test_a_decision_makes_exactly_its_iterations_when_the_clock_allows(iterations):
    game = create_game("sequence", players=2, seed=4)
    budget = ismcts.Budget(iterations=iterations, seconds=60)
    _, root = ismcts.search(game.view(game.to_move[0]), random.Random(2), budget, branching=6)
    assert root.visits == iterations


def test_the_time_cap_stops_a_search_after_at_least_one_iteration():
    game = create_game("sequence", players=2, seed=4)
    budget = ismcts.Budget(iterations=10_000, seconds=0.0)
    action, root = ismcts.search(game.view(game.to_move[0]), random.Random(2), budget, 6)
    assert root.visits == 1 and action in game.legal_actions(game.to_move[0])


def test_action_keys_match_equal_actions_and_tell_others_apart():
    game = create_game("sequence", players=2, seed=4)
    seat = game.to_move[0]
    legal = game.view(seat)["you"]["legal_actions"]  # read-only lists for cells
    keys = [ismcts.action_key(a) for a in legal]
    assert len(set(keys)) == len({repr(a) for a in legal}) > 10
    assert keys == [ismcts.action_key(a) for a in game.legal_actions(seat)]
    # A view read from JSON holds plain dicts: their keys are the prebuilt actions' keys.
    assert keys == [ismcts.action_key(a) for a in json.loads(json.dumps(legal))]
