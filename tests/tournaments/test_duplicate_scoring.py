"""Matchpoints by hand: each side against every other that held its seat of the deal."""

from __future__ import annotations

from stacks_api.competition.duplicate import Held, matchpoints, round_table, standings


def held(entry: str, board: int, seat: int, score: float, turns: int, progress: int = 0) -> Held:
    return Held(entry, board, seat, score, turns, progress)


def test_a_win_beats_a_draw_beats_a_loss_then_a_faster_win_and_a_longer_loss():
    group = [
        held("slow win", 1, 0, 1.0, 50),
        held("quick win", 2, 0, 1.0, 40),
        held("draw", 3, 0, 0.5, 90),
        held("quick loss", 4, 0, 0.0, 30, progress=1),
        held("long loss", 5, 0, 0.0, 70),
    ]
    scored = {s.held.entry: s.matchpoints for s in matchpoints(group)}
    assert scored == {"quick win": 4.0, "slow win": 3.0, "draw": 2.0, "long loss": 1.0,
                      "quick loss": 0.0}  # fmt: skip
    assert {s.top for s in matchpoints(group)} == {4}


def test_progress_breaks_an_equal_result_and_a_true_tie_halves():
    group = [
        held("two sequences", 1, 0, 0.0, 60, progress=2),
        held("one sequence", 2, 0, 0.0, 60, progress=1),
        held("also one", 3, 0, 0.0, 60, progress=1),
    ]
    scored = [(s.held.entry, s.matchpoints) for s in matchpoints(group)]
    assert scored == [("two sequences", 2.0), ("one sequence", 0.5), ("also one", 0.5)]


def test_a_round_of_two_deals_seats_and_a_bye_make_the_standings():
    # Round 1: boards 1 and 2 played the same deal; A (seat 0) won faster than C.
    first = round_table([
        held("A", 1, 0, 1.0, 40), held("B", 1, 1, 0.0, 40),
        held("C", 2, 0, 1.0, 60), held("D", 2, 1, 0.0, 60),
    ])  # fmt: skip
    assert [s.held.entry for s in first[0]] == ["A", "C"]
    assert [s.held.entry for s in first[1]] == ["D", "B"], "the longer loss did better"
    # Round 2: a bye for E, worth half of the round's top.
    second = round_table([
        held("B", 1, 0, 0.5, 80), held("C", 1, 1, 0.5, 80),
        held("D", 2, 0, 1.0, 30), held("A", 2, 1, 0.0, 30),
    ])  # fmt: skip
    ranked = standings({e: 1500.0 for e in "ABCDE"}, [(first, ()), (second, ("E",))])
    by_entry = {s.entry: s for s in ranked}
    assert [(e, by_entry[e].matchpoints) for e in "ABCDE"] == [
        ("A", 1.0), ("B", 0.0), ("C", 1.0), ("D", 2.0), ("E", 0.5)]  # fmt: skip
    assert by_entry["D"].percentage == 100.0 and by_entry["E"].percentage == 50.0
    assert by_entry["E"].top == 1 and by_entry["E"].byes == 1
    assert ranked[0].entry == "D"
