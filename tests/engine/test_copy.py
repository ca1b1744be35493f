"""``Game.copy``: an independent game, equal to the original when made."""

import random

import pytest

from stacks_api.engine import create_game


@pytest.mark.parametrize(("variant", "players"), [("sequence", 2), ("sequence", 6), ("stacks", 3)])
def test_a_copy_equals_its_original_and_moves_apart_from_it(variant, players):
    game = create_game(variant, players=players, seed=4)
    rng = random.Random(4)
    for _ in range(200):
        if game.result is not None:
            break
        before = game.to_dict()
        twin = game.copy()
        assert twin.to_dict() == before
        seat = twin.to_move[0]
        twin.apply(seat, rng.choice(twin.legal_actions(seat)))
        assert game.to_dict() == before  # the original did not move with its copy
        game = twin
    assert game.to_dict() != create_game(variant, players=players, seed=4).to_dict()
