"""Stacks positions: strict validation, exact round trips, hidden information."""

import json

import pytest

from stacks_api.engine import IllegalAction, SetupError, create_game
from stacks_api.variants.stacks.cards import deck_for

from .helpers import assert_round_trip, deck_without


def base(**extra):
    pos = {"piles": [[], [], [], []], "hands": [["B1"], ["R1"]], "turn": 0}
    pos.update(extra)
    return pos


def make(pos, players=2):
    return create_game("stacks", players=players, seed=3, position=pos)


@pytest.mark.parametrize(
    ("pos", "message"),
    [
        (base(board=[]), "unknown key 'board'"),
        ({"piles": [[]] * 4, "turn": 0}, "missing key 'hands'"),
        (base(piles=[[], [], []]), "piles must have 4 entries"),
        (base(piles=[["B1", "B2", "B3", "B4", "B5"], [], [], []]), "piles[0] holds 5 cards"),
        (base(piles=[["B2"], [], [], []]), "piles[0][0] B2 does not follow"),
        (base(piles=[[], [], ["B1"], []]), "piles[2][0] B1 does not follow on red pile 2"),
        (base(piles=[["SKIP"], [], [], []]), "piles[0][0] is not a card code"),
        (base(hands=[["B9"], []]), "hands[0][0] is not a card code"),
        (base(hands=[["REVERSE"], []]), "more copies of REVERSE than the deck holds"),
        (base(set_aside=["SKIP"]), "set_aside[0] is not a card code"),
        (base(special_discard=["B1"]), "special_discard[0] is not a card code"),
        (base(chips=[{"blue": 1}, {"blue": 0, "red": 0}]), "missing key 'red'"),
        (base(chips=[{"blue": 2, "red": 3}, {"blue": 0, "red": 0}]), "seat 0 has already won"),
        (base(chips=[{"blue": 15, "red": 0}, {"blue": 6, "red": 0}]), "more than 20 blue"),
        (base(chips=[{"blue": 20, "red": 1}, {"blue": 0, "red": 19}]), "already drawn"),
        (base(direction=0), "direction must be the whole number 1 or -1"),
        (base(direction=1.0), "direction must be the whole number 1 or -1"),
        (base(direction=True), "direction must be the whole number 1 or -1"),
        (base(skips=[0, -1]), "skips[1] must be a whole number"),
        (base(skips=[0, 1000]), "skips[1] must be a whole number from 0 to 2"),
        (base(skips=[2, 1.0]), "skips[1] must be a whole number"),
        (base(skips=[1, 2]), "more skip markers than the 2 Skip cards"),
        (base(plays=101), "plays must be a whole number from 0 to 100"),
        (base(plays=3.0), "plays must be a whole number from 0 to 100"),
        (base(turn=5), "turn must be a whole number from 0 to 1"),
        (base(draw_pile=["B2"]), "every card must be placed"),
    ],
)
def test_bad_positions_name_the_first_problem(pos, message):
    with pytest.raises(SetupError) as err:
        make(pos)
    assert message in str(err.value)


def test_position_loads_as_given_and_round_trips():
    pos = base(
        piles=[["B1", "BW"], [], ["RW"], []],
        hands=[["B3", "SKIP", "R2", "R2", "BLOCK", "B4", "STEAL_CHIP"], []],
        discards=[["B5"], ["R5", "R4"]],
        chips=[{"blue": 1, "red": 0}, {"blue": 0, "red": 2}],
        set_aside=["B1", "B2", "B3", "B4", "B5"],
        special_discard=["SKIP"],
        direction=-1,
        skips=[0, 1],
        turn=1,
    )
    g = make(pos)
    view = g.view(1)
    assert view["to_move"] == [1] and view["you"]["hand"] == []  # no refill on load
    assert view["direction"] == -1 and view["players"][1]["skips"] == 1
    assert (
        view["draw_pile_count"] == 112 - 3 - 7 - 3 - 5 - 1
    )  # piles, hands, discards, set-aside, special
    written = g.to_dict()["position"]
    assert {k: v for k, v in written.items() if k != "draw_pile"} == {**pos, "plays": 0}
    assert_round_trip(g)


def test_an_exact_draw_pile_is_drawn_in_order():
    rest = deck_without(deck_for(2), "B1", "R1")
    g = make(base(draw_pile=rest))
    g.apply(0, {"type": "discard", "card": "B1"})
    assert g.view(1)["you"]["hand"] == ["R1", *rest[:4]]


def test_views_and_events_hide_hands_the_draw_pile_and_seed():
    g = create_game("stacks", players=3, seed=987654321)
    secret = g.to_dict()
    hands = secret["position"]["hands"]
    for seat in (None, 0, 1, 2):
        text = json.dumps(g.view(seat))
        assert "987654321" not in text and str(secret["rng"]) not in text
        assert json.dumps(secret["position"]["draw_pile"][:6])[1:-1] not in text
        for other in range(3):
            if other != seat:
                assert f'"hand": {json.dumps(hands[other])}' not in text
    seat = g.to_move[0]
    events = g.apply(seat, {"type": "discard", "card": hands[seat][0]})
    assert all(set(e) <= {"type", "seat", "card", "count"} for e in events)


@pytest.mark.parametrize(
    "action",
    [{"type": "play", "card": "B1"}, {"type": "play", "card": "B1", "pile": 4},
     {"type": "play", "card": "B1", "pile": 0, "target": 1},
     {"type": "play", "card": "SKIP", "pile": 0}, {"type": "play", "card": "STEAL_CARD"},
     {"type": "play", "card": "STEAL_CHIP", "target": 1},
     {"type": "play", "card": "STEAL_CHIP", "target": 1, "color": "green"},
     {"type": "play", "card": "STEAL_CARD", "target": 2},
     {"type": "play", "card": "B1", "pile": 0, "from": "deck"},
     {"type": "discard", "card": "B1", "from": "hand"}, {"type": "discard"},
     {"type": "play", "card": "7H", "cell": [0, 1]}, {"type": "exchange", "card": "B1"}],
)  # fmt: skip
def test_malformed_actions_are_bad_action(action):
    g = make(base())
    for seat in (0, 1):
        with pytest.raises(IllegalAction) as err:
            g.apply(seat, action)
        assert err.value.code == "bad_action", str(err.value)
