"""Bots choose legal actions from their own seat's view, and nothing else."""

import random

import pytest

from stacks_api import bots
from stacks_api.engine import create_game
from stacks_api.engine.sequence.setup import DECK
from stacks_api.engine.stacks.cards import deck_for
from stacks_api.tournament import Standing, play_one

from ..engine.helpers import deck_without

BOT_NAMES = sorted(bots.BOTS)
# Small and bound by iterations, never by the clock, so choices are reproducible.
OPTIONS = {"mcts": {"iterations": 40, "seconds": 60}}


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize(("variant", "players"), [("sequence", 2), ("sequence", 6), ("stacks", 3)])
def test_every_choice_is_legal_until_the_game_ends(name, variant, players):
    game = create_game(variant, players=players, seed=5)
    rng = random.Random(1)
    for _ in range(400 if name != "mcts" else 12):
        if game.result is not None:
            break
        for seat in game.to_move[:1]:
            action = bots.choose(name, game.view(seat), rng, OPTIONS.get(name))
            assert action in game.legal_actions(seat)
            game.apply(seat, action)


def twin_sequence_games():
    """Two games, same for seat 0's eyes, differing in seat 1's hand and the draw pile."""
    hands = [["7H", "2S", "JD", "QS", "KC", "5D", "9C"], None]
    rest = deck_without(DECK, *hands[0])
    twins = []
    for order in (rest, rest[::-1]):
        hands[1] = order[:7]
        pos = {"board": ["X........X"] + [".........."] * 8 + ["X........X"],
               "hands": [hands[0], hands[1]], "draw_pile": order[7:], "turn": 0}  # fmt: skip
        twins.append(create_game("sequence", players=2, seed=3, position=pos))
    return twins


def twin_stacks_games():
    hands = [["B1", "B2", "R4", "SKIP", "BW"], None]
    rest = deck_without(deck_for(2), *hands[0])
    twins = []
    for order in (rest, rest[::-1]):
        pos = {"piles": [[], [], [], []], "hands": [hands[0], order[:5]], "draw_pile": order[5:],
               "turn": 0}  # fmt: skip
        twins.append(create_game("stacks", players=2, seed=3, position=pos))
    return twins


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("twins", [twin_sequence_games, twin_stacks_games])
def test_a_choice_depends_only_on_the_seats_view(name, twins):
    first, second = twins()
    assert first.to_dict() != second.to_dict()  # the hidden cards differ
    assert first.view(0) == second.view(0)  # what seat 0 sees does not
    for seed in range(3):
        a = bots.choose(name, first.view(0), random.Random(seed), OPTIONS.get(name))
        b = bots.choose(name, second.view(0), random.Random(seed), OPTIONS.get(name))
        assert a == b


@pytest.mark.parametrize("variant", ["sequence", "stacks"])
def test_greedy_beats_random_most_of_the_time(variant):
    standings = {"greedy": Standing("greedy"), "random": Standing("random")}
    wins = [
        play_one(variant, ["greedy", "random"] if n % 2 else ["random", "greedy"], n, standings)
        for n in range(30)
    ]
    assert wins.count("greedy") >= 24


@pytest.mark.parametrize(
    ("options", "problem"),
    [({"depth": 3}, "takes no option"), ({"iterations": 0}, "from 1"),
     ({"iterations": 2.5}, "whole number"), ({"seconds": "1"}, "a number"), ({}, None)],
)  # fmt: skip
def test_bot_options_are_checked(options, problem):
    found = bots.check_options("mcts", options)
    assert (found is None) if problem is None else (problem in found)
