"""Swiss pairings and standings (stacks_api/competition/swiss.py)."""

from __future__ import annotations

import random

from stacks_api.competition.swiss import Entrant, Result, pair, rank, standings


def field(count: int) -> list[Entrant]:
    return [Entrant(f"p{i:03}", rating=2000 - 10 * i) for i in range(count)]


def play_round(entrants: list[Entrant], rng: random.Random) -> tuple[list[Result], list[str]]:
    """Pair a round, play it with random results (draws too), and book it."""
    by_id = {e.id: e for e in entrants}
    made = pair(entrants)
    results = []
    for table in made.tables:
        a, b = table.seats
        points = rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
        results.append(Result((a, b), points))
        for seat, (entry, other) in enumerate(((a, b), (b, a))):
            by_id[entry].met.add(other)
            by_id[entry].seats.append(seat)
            by_id[entry].points += points[seat]
    for entry in made.byes:
        by_id[entry].byes += 1
        by_id[entry].points += 1.0
    return results, list(made.byes)


def test_the_first_round_pairs_the_top_half_with_the_bottom_half_in_order():
    made = pair(field(8))
    assert [set(t.seats) for t in made.tables] == [
        {"p000", "p004"}, {"p001", "p005"}, {"p002", "p006"}, {"p003", "p007"}
    ]  # fmt: skip
    assert made.byes == ()


def test_sixty_four_players_over_six_rounds_never_meet_twice():
    rng = random.Random(5)
    entrants = field(64)
    seen: set[frozenset[str]] = set()
    for _ in range(6):
        results, byes = play_round(entrants, rng)
        assert not byes
        assert sorted(e for r in results for e in r.seats) == sorted(e.id for e in entrants)
        for result in results:
            pair_ = frozenset(result.seats)
            assert pair_ not in seen
            seen.add(pair_)


def test_an_odd_field_gives_one_bye_a_round_never_twice_to_anyone():
    rng = random.Random(8)
    entrants = field(13)
    had: list[str] = []
    for _ in range(6):
        _, byes = play_round(entrants, rng)
        assert len(byes) == 1
        had += byes
    assert len(set(had)) == len(had)


def test_the_bye_goes_to_the_lowest_ranked_without_one():
    entrants = field(5)
    entrants[4].byes = 1
    assert pair(entrants).byes == ("p003",)


def test_players_of_equal_score_meet_and_a_leftover_floats_down():
    entrants = field(6)
    for e in entrants[:3]:
        e.points = 1.0
    made = pair(entrants)
    top = {"p000", "p001", "p002"}
    groups = [len(top & set(t.seats)) for t in made.tables]
    assert sorted(groups) == [0, 1, 2], "two of the top group meet, the third floats down"


def test_a_round_without_rematches_is_found_by_backtracking():
    entrants = field(4)
    # p000 met p002 and p001 met p003: the Dutch order (0-2, 1-3) is barred.
    for a, b in (("p000", "p002"), ("p001", "p003")):
        entrants[int(a[1:])].met.add(b)
        entrants[int(b[1:])].met.add(a)
    made = pair(entrants)
    assert {frozenset(t.seats) for t in made.tables} == {
        frozenset({"p000", "p001"}), frozenset({"p002", "p003"})
    } or {frozenset(t.seats) for t in made.tables} == {
        frozenset({"p000", "p003"}), frozenset({"p001", "p002"})
    }  # fmt: skip


def test_rematches_only_when_no_round_avoids_them():
    entrants = field(2)
    entrants[0].met.add("p001")
    entrants[1].met.add("p000")
    assert [set(t.seats) for t in pair(entrants).tables] == [{"p000", "p001"}]


def test_seats_alternate():
    entrants = field(2)
    entrants[0].seats, entrants[1].seats = [0], [1]
    assert pair(entrants).tables[0].seats == ("p001", "p000")
    entrants[0].seats, entrants[1].seats = [0, 1], [1, 0]
    assert pair(entrants).tables[0].seats == ("p000", "p001"), "the one second last sits first"


def test_the_same_entries_and_results_give_the_same_pairings():
    def run() -> list[tuple[str, ...]]:
        rng, entrants, tables = random.Random(3), field(31), []
        for _ in range(5):
            results, _ = play_round(entrants, rng)
            tables += [r.seats for r in results]
        return tables

    assert run() == run()


def test_tables_of_three_are_cut_from_the_ranking_with_byes_for_the_rest():
    made = pair(field(8), table_size=3)
    assert [t.seats for t in made.tables] == [("p000", "p001", "p002"), ("p003", "p004", "p005")]
    assert made.byes == ("p006", "p007")


def test_standings_rank_by_points_then_buchholz_then_sonneborn_berger():
    ratings = {"a": 1500, "b": 1500, "c": 1500, "d": 1500}
    results = [
        Result(("a", "b"), (1.0, 0.0)),
        Result(("c", "d"), (0.5, 0.5)),
        Result(("a", "c"), (0.0, 1.0)),
        Result(("b", "d"), (1.0, 0.0)),
    ]
    table = {s.id: s for s in standings(ratings, results)}
    assert [table[x].points for x in "abcd"] == [1.0, 1.0, 1.5, 0.5]
    # a met b (1) and c (1.5); b met a (1) and d (0.5)
    assert table["a"].buchholz == 2.5 and table["b"].buchholz == 1.5
    # a beat b (1); b beat d (0.5); c drew d (0.5/2) and beat a (1)
    assert table["a"].sonneborn_berger == 1.0 and table["b"].sonneborn_berger == 0.5
    assert table["c"].sonneborn_berger == 1.25
    assert [s.id for s in standings(ratings, results)] == ["c", "a", "b", "d"]
    assert rank([]) == []
