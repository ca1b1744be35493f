"""Seeded random games to the end, with every invariant checked after every action.

After each action: the deck is conserved as a multiset over every zone, chips are
conserved (Stacks), to_dict/load_game round-trips exactly, sampled legal actions are
accepted and sampled actions outside legal_actions are refused without any change,
and the game rebuilt from to_dict lists the same legal actions.
"""

import random
from collections import Counter

import pytest

from stacks_api.engine import IllegalAction, create_game, load_game
from stacks_api.variants.sequence.board import ALL_CARDS
from stacks_api.variants.sequence.setup import DECK
from stacks_api.variants.stacks.cards import CARD_SET, deck_for

from .helpers import assert_round_trip, cards_in_play

SEQUENCE_COUNTS = [2, 3, 4, 6, 8, 9, 10, 12]
STACKS_COUNTS = [2, 3, 4, 5, 6]
STACKS_CARDS = sorted(CARD_SET)


def sequence_probe(rng: random.Random, hand: list[str], players: int) -> dict:
    """A plausible-looking Sequence action, legal or not."""
    card = rng.choice(hand) if hand and rng.random() < 0.8 else rng.choice(ALL_CARDS)
    roll = rng.random()
    if roll < 0.1:
        return {"type": "exchange", "card": card}
    if roll < 0.12:
        return {"type": "pass"}
    return {"type": "play", "card": card, "cell": [rng.randrange(10), rng.randrange(10)]}


def stacks_probe(rng: random.Random, hand: list[str], players: int) -> dict:
    """A plausible-looking Stacks action, legal or not."""
    card = rng.choice(hand) if hand and rng.random() < 0.8 else rng.choice(STACKS_CARDS)
    roll = rng.random()
    if roll < 0.1:
        return {"type": "discard", "card": card}
    if roll < 0.15:
        return {"type": "pass"}
    action = {"type": "play", "card": card}
    if rng.random() < 0.2:
        action["from"] = "discard"
    if card == "STEAL_CARD":
        action["target"] = rng.randrange(players)
    elif card == "STEAL_CHIP":
        action.update(target=rng.randrange(players), color=rng.choice(["blue", "red"]))
    elif card not in ("SKIP", "REVERSE", "BLOCK"):
        action["pile"] = rng.randrange(4)
    return action


def check_legal_agrees_with_apply(game, seat, legal, rng, probe):
    for action in rng.sample(legal, min(2, len(legal))):
        load_game(game.to_dict()).apply(seat, action)  # must not raise
    hand = game.view(seat)["you"]["hand"]
    for _ in range(3):
        action = probe(rng, hand, game.players)
        if action in legal:
            continue
        before = game.to_dict()
        with pytest.raises(IllegalAction):
            game.apply(seat, action)
        assert game.to_dict() == before


def play_checked_games(variant, players, games, deck, probe, options_for):
    rng = random.Random(players)
    endings = Counter()
    for seed in range(games):
        game = create_game(variant, players=players, seed=seed, options=options_for(rng))
        while game.status == "active":
            movers = game.to_move
            seat = rng.choice(movers)
            legal = game.legal_actions(seat)
            assert legal and len(legal) == len({repr(sorted(a.items())) for a in legal})
            for other in set(range(players)) - set(movers):
                assert game.legal_actions(other) == []
            check_legal_agrees_with_apply(game, seat, legal, rng, probe)
            game.apply(seat, rng.choice(legal))
            assert cards_in_play(game) == deck
            if variant == "stacks":
                view = game.view()
                for color in ("blue", "red"):
                    held = sum(chips[color] for chips in view["chips"])
                    assert held + view["supply"][color] == 20 and view["supply"][color] >= 0
            assert_round_trip(game)
            # What a game keeps up to date move by move (open spaces per card, lines,
            # card counts per hand) agrees with the same game rebuilt from scratch.
            rebuilt = load_game(game.to_dict())
            assert rebuilt.to_move == game.to_move
            for seat in game.to_move:
                assert rebuilt.legal_actions(seat) == game.legal_actions(seat)
        assert game.to_move == [] and all(game.legal_actions(s) == [] for s in range(players))
        endings[next(iter(game.result))] += 1
    return endings


@pytest.mark.parametrize("players", SEQUENCE_COUNTS)
def test_sequence_random_games(players):
    def options(rng):
        return {"teams": rng.choice([2, 3])} if players in (6, 12) else None

    endings = play_checked_games(
        "sequence", players, 300 // len(SEQUENCE_COUNTS) + 1, Counter(DECK), sequence_probe, options
    )
    assert endings["winner_team"] > 0


@pytest.mark.parametrize("players", STACKS_COUNTS)
def test_stacks_random_games(players):
    def options(rng):
        return {"block_window": rng.choice(["all", "holders"])}

    endings = play_checked_games(
        "stacks",
        players,
        300 // len(STACKS_COUNTS),
        Counter(deck_for(players)),
        stacks_probe,
        options,
    )
    assert endings["winner_seat"] > 0
