"""Seeded random games to the end, with every invariant checked after every action."""

import random
from collections import Counter

import pytest

from stacks_api.engine import IllegalAction, create_game
from stacks_api.engine.sequence.board import ALL_CARDS
from stacks_api.engine.sequence.setup import DECK

from .helpers import assert_round_trip, sequence_card_count

COUNTS = [2, 3, 4, 6, 8, 9, 10, 12]
FULL_DECK = Counter(DECK)


def random_action(rng: random.Random, hand: list[str]) -> dict:
    """A plausible-looking action, legal or not."""
    kind = rng.random()
    card = rng.choice(hand) if hand and kind < 0.8 else rng.choice(ALL_CARDS)
    if kind < 0.1:
        return {"type": "exchange", "card": card}
    if kind < 0.12:
        return {"type": "pass"}
    return {"type": "play", "card": card, "cell": [rng.randrange(10), rng.randrange(10)]}


def check_legal_agrees_with_apply(game, seat, legal, rng):
    probes = rng.sample(legal, min(2, len(legal)))
    for action in probes:
        clone = game.__class__.from_dict(game.to_dict())
        clone.apply(seat, action)  # must not raise
    hand = game.view(seat)["you"]["hand"]
    for _ in range(3):
        action = random_action(rng, hand)
        if action in legal:
            continue
        before = game.to_dict()
        with pytest.raises(IllegalAction):
            game.apply(seat, action)
        assert game.to_dict() == before


@pytest.mark.parametrize("players", COUNTS)
def test_random_games_keep_every_invariant(players):
    games = 300 // len(COUNTS) + 1  # 38 per count, 304 in all
    rng = random.Random(players)
    results = Counter()
    for seed in range(games):
        options = {"teams": rng.choice([2, 3])} if players in (6, 12) else None
        game = create_game("sequence", players=players, seed=seed, options=options)
        plies = 0
        while game.status == "active":
            (seat,) = game.to_move
            legal = game.legal_actions(seat)
            assert legal and len(legal) == len({repr(a) for a in legal}), "distinct actions"
            for other in range(players):
                if other != seat:
                    assert game.legal_actions(other) == []
            check_legal_agrees_with_apply(game, seat, legal, rng)
            game.apply(seat, rng.choice(legal))
            plies += 1
            assert sequence_card_count(game) == FULL_DECK
            assert_round_trip(game)
        assert game.to_move == [] and game.legal_actions(0) == []
        results[next(iter(game.result))] += 1
    assert results["winner_team"] > 0
