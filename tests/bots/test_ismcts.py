"""The tree search (``strong``): its statistics on a position small enough to work out
by hand, and its budget."""

from __future__ import annotations

import json
import random

import pytest

from stacks_api import variants
from stacks_api.bots import ismcts
from stacks_api.engine import create_game
from stacks_api.variants.sequence import bot as sequence_bot

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


def test_the_tree_after_two_rounds_is_what_a_hand_calculation_says(nim):
    budget = ismcts.Budget(iterations=4, seconds=60, exploration=0.7, widening=1.0, bias=0.0)
    action, root = ismcts.search(two_stones().view(0), random.Random(0), budget, branching=3)
    take = {key[-1]: node for key, node in root.children.items()}  # ("type", "count", "take", n)
    # Two candidates, so 4 iterations make 2 rounds of one iteration under each.
    # Take 2 wins at once: score 1 for seat 0 in both rounds.
    # Take 1 leaves one stone: seat 1's only move (its policy's, added in round 1 and
    # chosen again in round 2) takes it and wins, so take 1 scores 0 for seat 0 and
    # the reply 1 for seat 1, twice.
    assert (take[2].visits, take[2].total, take[2].available) == (2, 2.0, 2)
    assert (take[1].visits, take[1].total, take[1].available) == (2, 0.0, 2)
    assert take[2].children == {} and root.visits == 2
    [reply] = take[1].children.values()
    assert (reply.mover, reply.visits, reply.total, reply.available) == (1, 2, 2.0, 2)
    assert action == {"type": "take", "count": 2}


def test_the_replies_are_nodes_of_the_same_tree(nim):
    budget = ismcts.Budget(iterations=40, seconds=60, widening=5.0)
    game = create_game("nim", players=2, seed=1, position={"stones": 3, "turn": 0})
    action, root = ismcts.search(game.view(0), random.Random(0), budget, branching=3)
    assert action == {"type": "take", "count": 3}  # takes the last three
    reply = root.children[ismcts.action_key({"type": "take", "count": 1})]
    assert {child.mover for child in reply.children.values()} == {1}
    # 40 iterations over 3 candidates: 13 rounds, each trying every candidate once.
    assert root.visits == 13
    assert [c.visits for c in root.children.values()] == [13, 13, 13]


@pytest.mark.parametrize("iterations", [6, 12, 48])
def test_a_decision_makes_exactly_its_iterations_when_the_clock_allows(iterations):
    game = create_game("sequence", players=2, seed=4)
    budget = ismcts.Budget(iterations=iterations, seconds=60)
    _, root = ismcts.search(game.view(game.to_move[0]), random.Random(2), budget, branching=6)
    assert len(root.children) == 6 and root.visits == iterations // 6
    assert sum(child.visits for child in root.children.values()) == iterations


def test_the_root_moves_are_compared_on_the_same_worlds(monkeypatch):
    """One world is dealt a round, and every candidate is tried in a copy of it."""
    dealt = []
    redeal = sequence_bot.Playout.redeal

    def counted(self, seat, rng):  # type: ignore[no-untyped-def]
        redeal(self, seat, rng)
        dealt.append(seat)

    monkeypatch.setattr(sequence_bot.Playout, "redeal", counted)
    game = create_game("sequence", players=2, seed=4)
    budget = ismcts.Budget(iterations=60, seconds=60, playout_turns=1)
    _, root = ismcts.search(game.view(game.to_move[0]), random.Random(5), budget, branching=6)
    assert len(dealt) == root.visits == 10
    assert all(child.visits == 10 for child in root.children.values())


def test_the_time_cap_stops_a_search_after_at_least_one_round():
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
