"""Sequence positions: strict validation, exact round trips, hidden information."""

import json

import pytest

from stacks_api.engine import IllegalAction, SetupError, create_game, load_game
from stacks_api.variants.sequence.setup import DECK

from .helpers import assert_round_trip, board, deck_without, line, row_cells


def make(pos, players=2, options=None):
    return create_game("sequence", players=players, seed=9, options=options, position=pos)


def base(**extra):
    pos = {"board": board(), "hands": [["7H"], ["2S"]], "turn": 0}
    pos.update(extra)
    return pos


@pytest.mark.parametrize(
    ("pos", "message"),
    [
        ("nope", "must be a JSON object"),
        (base(extra=1), "unknown key 'extra'"),
        ({"board": board(), "turn": 0}, "missing key 'hands'"),
        (base(board=board()[:9]), "board must have 10 entries"),
        (base(board=["X........X"] + ["." * 10] * 9), "board[9][0] is a corner"),
        (base(board=["X...X....X", *board()[1:]]), "board[0][4] is 'X'"),
        (base(board=[board()[0], "...Q......", *board()[2:]]), "board[1][3] is 'Q'"),
        (base(board=[board()[0], "...R......", *board()[2:]]), "board[1][3] is 'R'"),
        (base(hands=[["7H"]]), "hands must have 2 entries"),
        (base(hands=[["7H", "ZZ"], []]), "hands[0][1] is not a card code"),
        (base(hands=[["7H"] * 8, []]), "hands[0] holds 8 cards; at most 7"),
        (base(hands=[["7H"] * 3, []]), "more copies of 7H"),
        (base(turn=2), "turn must be a whole number from 0 to 1"),
        (base(turn=True), "turn must be a whole number"),
        (base(draw_pile=[]), "every card must be placed"),
        (base(discards=[["AS"]]), "discards must have 2 entries"),
        (base(sequences=[[[0, 1], [0, 2], [0, 3], [0, 4], [0, 5]]]), "not held by one team"),
        (
            base(
                board=board(line("B", row_cells(1, range(6)))),
                sequences=[[[1, 0], [1, 1], [1, 2], [1, 3], [1, 5]]],
            ),
            "straight line",
        ),
        (
            base(
                board=board(line("B", row_cells(1, range(10)))),
                sequences=[[[1, c] for c in range(5)], [[1, c] for c in range(3, 8)]],
            ),
            "shares more than one space",
        ),
        (
            base(
                board=board(line("B", row_cells(1, range(9)))),
                sequences=[[[1, c] for c in range(5)], [[1, c] for c in range(4, 9)]],
            ),
            "team 0 has already won",
        ),
        (base(sequences=[[[0, 1], [0, 2]]]), "sequences[0] must have 5 entries"),
        (base(sequences=[[[0, 1], [0, 2], [0, 3], [0, 4], [0, 10]]]), "col must be a whole number"),
    ],
)
def test_bad_positions_name_the_first_problem(pos, message):
    with pytest.raises(SetupError) as err:
        make(pos)
    assert message in str(err.value)
    assert err.value.field == "position"


def test_red_chips_are_allowed_only_with_three_teams():
    pos = {"board": board({(1, 3): "R"}), "hands": [[], [], []], "turn": 2}
    assert make(pos, players=3).view()["board"][1][3] == "R"


def test_position_loads_exactly_as_given_and_round_trips():
    first = [[1, c] for c in range(5)]
    pos = base(
        board=board(line("G", row_cells(1, range(5)))),
        sequences=[first],
        discards=[["AS", "KS"], []],
        turn=1,
    )
    g = make(pos)
    view = g.view(1)
    assert view["you"]["hand"] == ["2S"] and view["to_move"] == [1]
    assert view["sequences"] == [first] and view["discards"] == [["AS", "KS"], []]
    assert view["draw_pile_count"] == 104 - 4
    again = make(g.to_dict()["position"])
    assert again.to_dict()["position"] == g.to_dict()["position"]
    assert_round_trip(g)


def test_draw_pile_given_is_drawn_in_order():
    rest = deck_without(DECK, "7H", "2S")
    g = make(base(draw_pile=rest))
    g.apply(0, {"type": "play", "card": "7H", "cell": [5, 3]})
    assert g.view(0)["you"]["hand"] == [rest[0]]


def test_views_hide_hands_draw_pile_and_seed():
    g = create_game("sequence", players=4, seed=123456789)
    secret = g.to_dict()
    spectator = json.dumps(g.view(None))
    assert "you" not in g.view(None)
    for seat in range(4):
        mine = json.dumps(g.view(seat))
        assert g.view(seat)["you"]["hand"] == secret["position"]["hands"][seat]
        for other in range(4):
            hand = secret["position"]["hands"][other]
            assert f'"hand": {json.dumps(hand)}' not in spectator
            if other != seat:
                assert f'"hand": {json.dumps(hand)}' not in mine
        for text in (mine, spectator):
            assert "123456789" not in text and str(secret["rng"]) not in text
            assert json.dumps(secret["position"]["draw_pile"][:5])[1:-1] not in text


def test_events_never_name_a_drawn_card():
    g = create_game("sequence", players=2, seed=4)
    for _ in range(40):
        seat = g.to_move[0]
        before = list(g.view(seat)["you"]["hand"])
        events = g.apply(seat, g.legal_actions(seat)[-1])
        drawn = [c for c in g.view(seat)["you"]["hand"] if c not in before]
        for event in events:
            if event["type"] == "draw":
                assert set(event) == {"type", "seat"}
        assert not any(e.get("card") in drawn and e["type"] != "play" for e in events)


def test_load_game_rechecks_the_state():
    data = create_game("sequence", players=2, seed=1).to_dict()
    data["position"]["hands"][0].append("7H")
    data["position"]["hands"][0].append("7H")
    with pytest.raises(SetupError):
        load_game(data)


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        {},
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "card": "7H"},
        {"type": "play", "card": "7X", "cell": [0, 1]},
        {"type": "play", "card": "7H", "cell": [10, 0]},
        {"type": "play", "card": "7H", "cell": [1]},
        {"type": "play", "card": "7H", "cell": [True, 1]},
        {"type": "play", "card": "7H", "cell": [5, 3], "pile": 1},
        {"type": "pass", "x": 1},
        {"type": "exchange"},
    ],
)
def test_malformed_actions_are_bad_action_before_anything_else(action):
    g = make(base())
    for seat in (0, 1):  # also for the seat whose turn it is not
        with pytest.raises(IllegalAction) as err:
            g.apply(seat, action)
        assert err.value.code == "bad_action"


@pytest.mark.parametrize("seat", [-1, 2, "0", None, 1.0])
def test_seat_out_of_range_is_bad_action(seat):
    with pytest.raises(IllegalAction) as err:
        make(base()).apply(seat, {"type": "pass"})
    assert err.value.code == "bad_action"


def test_not_your_turn_comes_before_illegal():
    g = make(base())
    with pytest.raises(IllegalAction) as err:
        g.apply(1, {"type": "play", "card": "AS", "cell": [2, 1]})
    assert err.value.code == "not_your_turn"
    assert g.legal_actions(1) == []
