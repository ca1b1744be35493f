"""Each Sequence rule of docs/rules.md, shown on hand-built positions."""

from itertools import pairwise

import pytest

from stacks_api.engine import SetupError, create_game
from stacks_api.variants.sequence.setup import DECK

from .helpers import (
    assert_refused,
    assert_round_trip,
    board,
    cards_in_play,
    deck_without,
    line,
    row_cells,
)

HAND_SIZES = {2: 7, 3: 6, 4: 6, 6: 5, 8: 4, 9: 4, 10: 3, 12: 3}


def position(chips=None, hands=None, players=2, **extra):
    pos = {"board": board(chips), "hands": hands or [[] for _ in range(players)], "turn": 0}
    pos.update(extra)
    return pos


def game_at(chips=None, hands=None, players=2, options=None, **extra):
    return create_game(
        "sequence",
        players=players,
        seed=1,
        options=options,
        position=position(chips, hands, players, **extra),
    )


# -- players, teams, dealing --------------------------------------------------


@pytest.mark.parametrize("players", sorted(HAND_SIZES))
def test_every_player_count_deals_its_hand_size_and_seats_teams(players):
    g = create_game("sequence", players=players, seed=3)
    teams = 3 if players in (3, 9) else 2
    view = g.view(None)
    assert [p["hand_size"] for p in view["players"]] == [HAND_SIZES[players]] * players
    assert [p["team"] for p in view["players"]] == [s % teams for s in range(players)]
    colors = {p["color"] for p in view["players"]}
    assert colors == {"blue", "green", "red"} if teams == 3 else {"blue", "green"}
    assert view["draw_pile_count"] == 104 - players * HAND_SIZES[players]
    assert g.options == {"teams": teams, "sequences_to_win": 2 if teams == 2 else 1}
    assert view["to_move"] == [(view["dealer"] + 1) % players]
    assert sum(cards_in_play(g).values()) == 104


@pytest.mark.parametrize("players", [1, 5, 7, 11, 13, 0, -2, "4", True])
def test_other_player_counts_are_refused(players):
    with pytest.raises(SetupError, match="players"):
        create_game("sequence", players=players, seed=1)


@pytest.mark.parametrize(("players", "teams"), [(6, 3), (12, 3), (6, 2), (12, 2), (9, 3)])
def test_allowed_team_counts(players, teams):
    g = create_game("sequence", players=players, seed=1, options={"teams": teams})
    assert {p["team"] for p in g.view()["players"]} == set(range(teams))
    assert g.options["sequences_to_win"] == (2 if teams == 2 else 1)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {"teams": 3}),
        (9, {"teams": 2}),
        (8, {"teams": 4}),
        (2, {"colour": "red"}),
        (4, {"sequences_to_win": 5}),
        (4, {"sequences_to_win": 0}),
        (6, {"teams": "3"}),
    ],
)
def test_bad_options_are_refused(players, options):
    with pytest.raises(SetupError):
        create_game("sequence", players=players, seed=1, options=options)


def test_the_cut_is_logged_and_the_lowest_card_deals():
    ranks = "23456789TJQKA"
    for seed in range(30):
        g = create_game("sequence", players=4, seed=seed)
        *cuts, deal = g.view()["log"]
        last = {c["seat"]: c["card"] for c in cuts[-1]["cards"]}
        low = min(ranks.index(card[0]) for card in last.values())
        assert [s for s, c in last.items() if ranks.index(c[0]) == low] == [deal["dealer"]]
        assert deal["first"] == (deal["dealer"] + 1) % 4
        for earlier, later in pairwise(cuts):  # a tie among the lowest cuts again
            earlier_ranks = {c["seat"]: ranks.index(c["card"][0]) for c in earlier["cards"]}
            lowest = min(earlier_ranks.values())
            tied = [s for s, rank in earlier_ranks.items() if rank == lowest]
            assert len(tied) > 1
            assert [c["seat"] for c in later["cards"]] == tied


def test_same_seed_same_game_and_other_seed_other_game():
    assert create_game("sequence", 4, 11).to_dict() == create_game("sequence", 4, 11).to_dict()
    assert create_game("sequence", 4, 11).to_dict() != create_game("sequence", 4, 12).to_dict()


# -- placing, jacks -----------------------------------------------------------


def test_normal_card_places_on_either_printed_space():
    g = game_at(hands=[["7H"], []])
    assert {tuple(a["cell"]) for a in g.legal_actions(0)} == {(4, 8), (5, 3)}
    events = g.apply(0, {"type": "play", "card": "7H", "cell": [5, 3]})
    assert events[0] == {"type": "play", "seat": 0, "card": "7H", "cell": [5, 3]}
    assert g.view()["board"][5][3] == "B"
    assert g.to_move == [1]
    assert g.view(0)["you"]["hand"] != ["7H"]  # drew a replacement


def test_normal_card_refusals_name_the_problem():
    g = game_at({(4, 8): "G", (5, 3): "G"}, hands=[["7H", "2S"], []])
    assert_refused(
        g,
        0,
        {"type": "play", "card": "7H", "cell": [5, 3]},
        "illegal_action",
        "7H has no open space",
    )
    assert_refused(
        g,
        0,
        {"type": "play", "card": "2S", "cell": [5, 3]},
        "illegal_action",
        "2S is not printed at [5, 3]",
    )
    assert_refused(
        g, 0, {"type": "play", "card": "3S", "cell": [0, 2]}, "illegal_action", "you do not hold 3S"
    )


def test_two_eyed_jack_goes_on_any_open_space_but_never_a_corner():
    g = game_at({(4, 4): "G"}, hands=[["JD"], []])
    cells = {tuple(a["cell"]) for a in g.legal_actions(0)}
    assert len(cells) == 100 - 4 - 1 and (0, 0) not in cells and (4, 4) not in cells
    assert_refused(g, 0, {"type": "play", "card": "JD", "cell": [0, 0]}, "illegal_action", "corner")
    assert_refused(g, 0, {"type": "play", "card": "JD", "cell": [4, 4]}, "illegal_action")
    g.apply(0, {"type": "play", "card": "JD", "cell": [9, 5]})
    assert g.view()["board"][9][5] == "B"


def test_one_eyed_jack_removes_an_opposing_chip_only():
    seq = row_cells(8, range(5))
    g = game_at(
        {**line("G", seq), (3, 3): "G", (3, 4): "B"},
        hands=[["JS"], []],
        sequences=[[list(c) for c in seq]],
    )
    assert [a["cell"] for a in g.legal_actions(0)] == [[3, 3]]
    assert_refused(
        g,
        0,
        {"type": "play", "card": "JS", "cell": [8, 2]},
        "illegal_action",
        "JS cannot remove a chip in a completed sequence",
    )
    assert_refused(
        g, 0, {"type": "play", "card": "JS", "cell": [3, 4]}, "illegal_action", "own team"
    )
    assert_refused(g, 0, {"type": "play", "card": "JS", "cell": [9, 9]}, "illegal_action", "corner")
    assert_refused(g, 0, {"type": "play", "card": "JS", "cell": [5, 5]}, "illegal_action", "empty")
    g.apply(0, {"type": "play", "card": "JS", "cell": [3, 3]})
    assert g.view()["board"][3][3] == "."


def test_one_eyed_jack_may_remove_either_opponent_in_three_teams():
    g = game_at({(2, 2): "G", (2, 3): "R", (2, 4): "B"}, hands=[["JH"], [], []], players=3)
    assert sorted(a["cell"] for a in g.legal_actions(0)) == [[2, 2], [2, 3]]


# -- dead cards ---------------------------------------------------------------


def test_dead_card_exchange_once_per_turn_before_playing():
    # 2S is printed at [0, 1] and [8, 6]; 3S at [0, 2] and [8, 5].
    chips = {(0, 1): "G", (8, 6): "B", (0, 2): "G", (8, 5): "G"}
    g = game_at(chips, hands=[["2S", "3S", "4S", "JD"], []])
    exchanges = [a for a in g.legal_actions(0) if a["type"] == "exchange"]
    assert exchanges == [{"type": "exchange", "card": "2S"}, {"type": "exchange", "card": "3S"}]
    assert_refused(g, 0, {"type": "exchange", "card": "4S"}, "illegal_action", "4S is not dead")
    assert_refused(g, 0, {"type": "exchange", "card": "JD"}, "illegal_action", "never dead")
    events = g.apply(0, {"type": "exchange", "card": "2S"})
    assert [e["type"] for e in events] == ["exchange", "draw"]
    assert g.to_move == [0] and g.view(0)["you"]["hand"][:3] == ["3S", "4S", "JD"]
    assert not [a for a in g.legal_actions(0) if a["type"] == "exchange"]
    assert_refused(g, 0, {"type": "exchange", "card": "3S"}, "illegal_action", "already exchanged")
    g.apply(0, {"type": "play", "card": "4S", "cell": [0, 3]})
    assert g.to_move == [1] and not g.view()["exchanged"]


# -- sequences ----------------------------------------------------------------


def play(g, card, r, c, seat=0):
    return g.apply(seat, {"type": "play", "card": card, "cell": [r, c]})


def sequences_of(g):
    return g.view()["sequences"]


def test_sequence_through_a_corner():
    g = game_at(line("B", row_cells(0, [1, 2, 3])), hands=[["5S"], []])
    events = play(g, "5S", 0, 4)
    assert {"type": "sequence", "team": 0, "cells": [[0, c] for c in range(5)]} in events
    assert g.status == "active"  # two teams need two sequences


def test_two_teams_share_a_corner():
    chips = {**line("B", row_cells(0, [1, 2, 3, 4])), **line("G", [(1, 0), (2, 0), (3, 0)])}
    g = game_at(chips, hands=[[], ["9C"]], sequences=[[[0, c] for c in range(5)]], turn=1)
    play(g, "9C", 4, 0, seat=1)
    assert sequences_of(g) == [[[0, c] for c in range(5)], [[r, 0] for r in range(5)]]


@pytest.mark.parametrize("length", [6, 7, 8])
def test_six_seven_or_eight_in_a_row_count_one(length):
    # Row 8 is AC 7S 6S 5S 4S 3S 2S 2H 3H 5D; place the 4S at column 4 last.
    g = game_at(line("B", [(8, c) for c in range(length) if c != 4]), hands=[["4S"], []])
    play(g, "4S", 8, 4)
    assert sequences_of(g) == [[[8, c] for c in range(5)]]
    assert g.status == "active"


def test_six_in_a_row_records_the_first_window_in_reading_order():
    g = game_at(line("B", [(8, c) for c in (0, 1, 3, 4, 5)]), hands=[["6S"], []])
    play(g, "6S", 8, 2)
    assert sequences_of(g) == [[[8, c] for c in range(5)]]


@pytest.mark.parametrize("length", [9, 10])
def test_nine_or_ten_in_a_row_made_by_one_chip_count_two_and_win(length):
    g = game_at(line("B", [(8, c) for c in range(length) if c != 4]), hands=[["4S"], []])
    events = play(g, "4S", 8, 4)
    assert sequences_of(g) == [[[8, c] for c in range(5)], [[8, c] for c in range(4, 9)]]
    assert g.result == {"winner_team": 0} and g.to_move == []
    assert events[-1] == {"type": "game_over", "result": {"winner_team": 0}}
    assert [e["type"] for e in events] == ["play", "sequence", "sequence", "game_over"]


def test_second_sequence_may_share_exactly_one_space():
    first = [[8, c] for c in range(5)]
    g = game_at(line("B", row_cells(8, range(8))), hands=[["3H"], []], sequences=[first])
    play(g, "3H", 8, 8)
    assert sequences_of(g) == [first, [[8, c] for c in range(4, 9)]]
    assert g.result == {"winner_team": 0}


def test_second_sequence_sharing_two_spaces_is_not_made():
    first = [[8, c] for c in range(5)]
    g = game_at(line("B", row_cells(8, range(7))), hands=[["2H"], []], sequences=[first])
    play(g, "2H", 8, 7)
    assert sequences_of(g) == [first] and g.status == "active"


def test_crossing_sequences_share_one_space():
    first = [[8, c] for c in range(5)]
    column = [(4, 2), (5, 2), (6, 2), (7, 2)]  # 7C, 8C, 9C, TC above 6S at [8, 2]
    g = game_at(
        {**line("B", row_cells(8, range(5))), **line("B", column[1:])},
        hands=[["7C"], []],
        sequences=[first],
    )
    play(g, "7C", 4, 2)
    assert sequences_of(g)[1] == [[r, 2] for r in range(4, 9)]
    assert g.result == {"winner_team": 0}


def test_a_chip_in_a_sequence_is_locked_but_one_outside_it_is_not():
    seq = [[8, c] for c in range(5)]
    g = game_at(line("G", row_cells(8, range(6))), hands=[["JS"], []], sequences=[seq])
    assert [a["cell"] for a in g.legal_actions(0)] == [[8, 5]]


def test_sequence_completed_with_a_two_eyed_jack():
    g = game_at(line("B", row_cells(1, range(4))), hands=[["JC"], []])
    play(g, "JC", 1, 4)
    assert sequences_of(g) == [[[1, c] for c in range(5)]]


def test_diagonal_sequences_in_both_directions():
    down_right = [(1, 1), (2, 2), (3, 3), (4, 4)]  # then 5H at... [5, 5] is 3H
    g = game_at(line("B", down_right), hands=[["3H"], []])
    play(g, "3H", 5, 5)
    assert sequences_of(g) == [[[k, k] for k in range(1, 6)]]
    down_left = [(1, 8), (2, 7), (3, 6), (4, 5)]  # then [5, 4] is 2H
    g = game_at(line("B", down_left), hands=[["2H"], []])
    play(g, "2H", 5, 4)
    assert sequences_of(g) == [[[1 + k, 8 - k] for k in range(5)]]


def test_three_team_game_is_won_by_one_sequence():
    g = game_at(line("R", row_cells(3, range(1, 5))), hands=[[], [], ["3C"]], players=3, turn=2)
    play(g, "3C", 3, 5, seat=2)
    assert g.result == {"winner_team": 2}
    assert_refused(g, 0, {"type": "pass"}, "game_over")
    assert g.legal_actions(0) == [] and g.legal_actions(2) == []


def test_sequences_to_win_option():
    g = game_at(
        line("B", row_cells(0, [1, 2, 3])), hands=[["5S"], []], options={"sequences_to_win": 1}
    )
    play(g, "5S", 0, 4)
    assert g.result == {"winner_team": 0}


# -- the draw pile, passing ---------------------------------------------------


def test_empty_draw_pile_reshuffles_every_discard_pile_including_the_card_just_played():
    g = create_game("sequence", players=2, seed=5)
    pos = g.to_dict()["position"]
    rest = pos["draw_pile"]
    pos.update(discards=[rest[:50], rest[50:]], draw_pile=[])
    g = create_game("sequence", players=2, seed=5, position=pos)
    seat = pos["turn"]
    events = g.apply(seat, g.legal_actions(seat)[0])
    assert {"type": "reshuffle", "cards": len(rest) + 1} in events
    view = g.view()
    assert view["discards"] == [[], []] and view["draw_pile_count"] == len(rest)
    assert sum(cards_in_play(g).values()) == 104
    assert_round_trip(g)


def test_pass_only_when_nothing_else_is_legal_and_a_play_breaks_the_run():
    rest = deck_without(DECK, "7H")
    g = game_at(hands=[[], [], ["7H"]], players=3, discards=[rest, [], []], draw_pile=[])
    assert g.legal_actions(0) == [{"type": "pass"}]
    g.apply(0, {"type": "pass"})
    g.apply(1, {"type": "pass"})
    assert g.view()["passes"] == 2
    assert_refused(g, 2, {"type": "pass"}, "illegal_action", "pass only")
    g.apply(2, {"type": "play", "card": "7H", "cell": [5, 3]})
    assert g.view()["passes"] == 0
    g.apply(0, {"type": "pass"})
    g.apply(1, {"type": "pass"})
    assert g.status == "active" and g.view()["passes"] == 2


def test_full_round_of_passes_is_a_draw():
    g = game_at(hands=[[], []], discards=[list(DECK), []], draw_pile=[])
    events = g.apply(0, {"type": "pass"}) + g.apply(1, {"type": "pass"})
    assert g.result == {"draw": True} and g.to_move == []
    assert events[-1] == {"type": "game_over", "result": {"draw": True}}
