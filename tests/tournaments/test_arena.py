"""Arena pairings and points (stacks_api/competition/arena.py)."""

from __future__ import annotations

from stacks_api.competition.arena import pair_free, points
from stacks_api.competition.swiss import Entrant


def test_the_free_players_meet_their_nearest_in_the_ranking():
    free = [Entrant("a", 1900, points=4), Entrant("b", 1500, points=4), Entrant("c", 1700),
            Entrant("d", 1600)]  # fmt: skip
    assert [set(t.seats) for t in pair_free(free, {})] == [{"a", "b"}, {"c", "d"}]


def test_nobody_meets_the_same_opponent_twice_in_a_row():
    free = [Entrant("a", 1900), Entrant("b", 1800), Entrant("c", 1700), Entrant("d", 1600)]
    last = {"a": "b", "b": "a"}
    assert [set(t.seats) for t in pair_free(free, last)] == [{"a", "c"}, {"b", "d"}]


def test_a_player_whose_only_free_opponent_is_the_last_one_waits():
    free = [Entrant("a"), Entrant("b")]
    assert pair_free(free, {"a": "b", "b": "a"}) == []


def test_tables_of_three_are_cut_from_the_ranking_and_the_rest_wait():
    free = [Entrant(x, 2000 - i) for i, x in enumerate("abcdefg")]
    assert [t.seats for t in pair_free(free, {}, 3)] == [("a", "b", "c"), ("d", "e", "f")]


def test_two_wins_in_a_row_start_a_streak_that_doubles_until_a_non_win():
    assert points([]) == (0, False)
    assert points([1, 1]) == (4, True)
    assert points([1, 1, 1, 0.5]) == (4 + 4 + 2, False), "the third win 4, the draw 2 on it"
    assert points([1, 0.5, 1, 0, 1]) == (2 + 1 + 2 + 0 + 2, False)
    assert points([1, 1, 0, 1, 1, 1]) == (2 + 2 + 0 + 2 + 2 + 4, True)
