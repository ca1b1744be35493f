"""Hints from a seat's own view: legal, explained, and blind to what it cannot see."""

from __future__ import annotations

import random

import pytest

from stacks_api import bots
from stacks_api.bots.hints import MOVES, hint
from stacks_api.engine import create_game

from .test_bots import twin_sequence_games, twin_stacks_games


@pytest.mark.parametrize("twins", [twin_sequence_games, twin_stacks_games])
def test_twin_games_differing_only_in_hidden_cards_give_the_same_hint(twins):
    first, second = twins()
    assert first.to_dict() != second.to_dict() and first.view(0) == second.view(0)
    assert hint(first.view(0), random.Random(3)) == hint(second.view(0), random.Random(3))


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_every_hinted_move_is_legal_explained_and_scored(variant):
    game = create_game(variant, players=2, seed=21)
    rng = random.Random(2)
    for turn in range(24):
        if game.result is not None:
            break
        seat = game.to_move[0]
        view = game.view(seat)
        if turn % 6 == 0:
            moves = hint(view, random.Random(turn))
            assert 1 <= len(moves) <= MOVES
            for move in moves:
                assert move["action"] in view["you"]["legal_actions"]
                assert 0.0 <= move["win"] <= 1.0 and move["why"] and move["reason"]["code"]
        game.apply(seat, bots.choose("medium", view, rng))


def test_a_sequence_hint_names_a_completed_sequence():
    rows = ["X........X", ".BBBB.....", *[".........."] * 7, "X........X"]
    # AH is printed at F2 (and elsewhere): there it makes blue's five.
    position = {"board": rows, "hands": [["AH", "2D", "3D", "4D", "5D", "7D", "8D"],
                                         ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]],
                "turn": 0}  # fmt: skip
    game = create_game("sequence", players=2, seed=1, position=position)
    view = game.view(0)
    place = next(a for a in view["you"]["legal_actions"] if a.get("cell") == [1, 5])
    best = hint(view, random.Random(0))[0]
    assert best["action"] == place, best
    assert best["reason"]["code"] == "completes_sequence" and "F2" in best["why"]
