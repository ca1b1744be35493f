"""Who finished where in a rated game, and which way OpenSkill moves each rating."""

from __future__ import annotations

from typing import Any

from stacks_api.competition.ratings import (
    START_MU,
    Rating,
    Standing,
    bot_subject,
    rate,
    stakes,
    standings,
)


def document(teams: list[int | None], scores: list[float], *, left: tuple[int, ...] = (),
             bots: dict[int, str] | None = None, moves: int = 6,
             left_after: int | None = None) -> dict[str, Any]:  # fmt: skip
    """A finished rated game: seat i on ``teams[i]``, each seat ``moves`` plays in
    turn; the seats in ``left`` leave after ``left_after`` rounds (default: at the end)."""
    bots = bots or {}
    seats = [{"seat": i, "team": t, "bot": bots.get(i), "player_id": None if i in bots else f"p{i}",
              "left": i in left} for i, t in enumerate(teams)]  # fmt: skip
    events: list[dict[str, Any]] = [{"type": "started"}]
    for round_ in range(moves):
        if round_ == left_after:
            events += [{"type": "left", "seat": s} for s in left]
        events += [{"type": "play", "seat": s["seat"]} for s in seats]
        events += [{"type": "draw", "seat": s["seat"]} for s in seats]
    if left_after is None:
        events += [{"type": "left", "seat": s} for s in left]
    for version, event in enumerate(events, start=1):
        event["version"] = version
    return {"rated": True, "status": "finished", "seats": seats, "events": events,
            "result": {"scores": scores}}  # fmt: skip


def after(doc: dict[str, Any]) -> dict[str, float]:
    return {subject: r.mu for subject, r in rate({}, standings(doc)).items()}


def test_two_teams_the_winners_gain_what_the_losers_lose_and_partners_move_together():
    moved = after(document([0, 1, 0, 1], [1.0, 0.0, 1.0, 0.0]))
    assert moved["p0"] == moved["p2"] > START_MU > moved["p1"] == moved["p3"]


def test_three_teams_one_winner_and_two_equal_below_it():
    moved = after(document([0, 1, 2, 0, 1, 2], [0.0, 1.0, 0.0, 0.0, 1.0, 0.0]))
    assert moved["p1"] == moved["p4"] > START_MU
    assert moved["p0"] == moved["p2"] == moved["p3"] == moved["p5"] < START_MU


def test_a_draw_ranks_every_team_equal_and_moves_equal_players_nowhere():
    ranks = {s.rank for s in standings(document([0, 1], [0.5, 0.5]))}
    assert ranks == {1}
    moved = after(document([0, 1], [0.5, 0.5]))
    assert abs(moved["p0"] - START_MU) < 1e-9 and abs(moved["p1"] - START_MU) < 1e-9


def test_a_draw_between_unequal_players_moves_the_stronger_one_down():
    rated = standings(document([0, 1], [0.5, 0.5]))
    moved = rate({"p0": Rating(1800.0, 200.0), "p1": Rating(1200.0, 200.0)}, rated)
    assert moved["p0"].mu < 1800.0 and moved["p1"].mu > 1200.0


def test_stacks_with_six_players_the_winner_first_everyone_else_equal():
    scores = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    moved = after(document([None] * 6, scores))  # Stacks has no teams: each seat a side
    assert moved["p3"] > START_MU
    others = {round(moved[f"p{i}"], 9) for i in (0, 1, 2, 4, 5)}
    assert len(others) == 1 and others.pop() < START_MU


def test_a_leaver_ranks_last_even_when_the_stand_in_wins_for_them():
    rated = {s.subject: s for s in standings(document([0, 1, 2], [1.0, 0.0, 0.0], left=(0,)))}
    assert rated["p0"].rank > rated["p1"].rank == rated["p2"].rank == 1
    moved = after(document([0, 1, 2], [1.0, 0.0, 0.0], left=(0,)))
    assert moved["p0"] < START_MU < moved["p1"]


def test_a_partner_of_a_leaver_keeps_the_tables_result():
    moved = after(document([0, 1, 0, 1], [1.0, 0.0, 1.0, 0.0], left=(2,)))
    assert moved["p0"] > START_MU > moved["p2"]


def test_a_game_left_before_each_side_made_five_moves_of_its_own_rates_nobody():
    assert standings(document([0, 1], [0.0, 1.0], left=(0,), left_after=1)) == []
    assert standings(document([0, 1], [0.0, 1.0], left=(0,), left_after=4)) == []
    assert standings(document([0, 1], [0.0, 1.0], left=(0,), left_after=5)) != []


def test_casual_and_cancelled_games_rate_nobody():
    doc = document([0, 1], [1.0, 0.0])
    assert standings({**doc, "rated": False}) == []
    assert standings({**doc, "status": "cancelled", "result": None}) == []


def test_a_bot_level_is_rated_once_a_game_and_never_against_itself():
    solo = standings(document([0, 1], [0.0, 1.0], bots={1: "strong"}))
    assert {s.subject for s in solo} == {"p0", bot_subject("strong")}
    twice = standings(document([0, 1, 0, 1], [1.0, 0.0, 1.0, 0.0], bots={1: "easy", 2: "easy"}))
    assert {s.subject for s in twice} == {"p0", "p3"}
    assert standings(document([0, 1], [1.0, 0.0], bots={0: "easy", 1: "easy"})) == []


def _timed_out(doc: dict[str, Any], seat: int, rounds: range) -> dict[str, Any]:
    """The document with ``seat``'s plays in ``rounds`` made by the clock: each in the
    change of a ``timeout`` event of its own (as the server writes them)."""
    plays = [e for e in doc["events"] if e["type"] == "play" and e["seat"] == seat]
    clocked = {plays[r]["version"] for r in rounds}
    events = []
    for event in doc["events"]:
        if event["type"] == "play" and event["version"] in clocked:
            events.append({"type": "timeout", "seat": seat, "version": event["version"]})
        events.append(event)
    return {**doc, "events": events}


def test_a_side_whose_every_move_the_clock_made_rates_nobody():
    doc = _timed_out(document([0, 1], [1.0, 0.0], bots={1: "beginner"}, moves=5), 0, range(5))
    assert standings(doc) == []
    four_own = _timed_out(document([0, 1], [1.0, 0.0], moves=8), 0, range(4, 8))
    assert standings(four_own) == [], "four moves of its own are not five"
    five_own = _timed_out(document([0, 1], [1.0, 0.0], moves=8), 0, range(5, 8))
    assert standings(five_own) != []


def test_a_team_is_rated_when_its_people_made_five_moves_between_them():
    doc = _timed_out(document([0, 1, 0, 1], [1.0, 0.0, 1.0, 0.0], moves=5), 0, range(5))
    assert {s.subject for s in standings(doc)} == {"p0", "p1", "p2", "p3"}
    fewer = _timed_out(document([0, 1, 0, 1], [1.0, 0.0, 1.0, 0.0], moves=4), 0, range(4))
    assert standings(fewer) == []


def _away(doc: dict[str, Any], seat: int, after_round: int, back_round: int | None = None):  # type: ignore[no-untyped-def]
    """The document with ``seat`` away from ``after_round`` (and back at ``back_round``)."""
    plays = [e for e in doc["events"] if e["type"] == "play" and e["seat"] == seat]
    marks = {plays[after_round]["version"]: "away"}
    if back_round is not None:
        marks[plays[back_round]["version"]] = "back"
    events = []
    for event in doc["events"]:
        if event["version"] in marks:
            events.append({"type": marks[event["version"]], "seat": seat,
                           "version": event["version"]})  # fmt: skip
        events.append(event)
    return {**doc, "events": events}


def test_a_person_away_to_the_end_ranks_last_and_gains_nothing_from_the_stand_in():
    won_for_them = _away(document([0, 1], [1.0, 0.0], moves=9), 0, after_round=5)
    rated = {s.subject: s for s in standings(won_for_them)}
    assert rated["p0"].gone and rated["p0"].rank > rated["p1"].rank == 1
    moved = after(won_for_them)
    assert moved["p0"] < START_MU < moved["p1"]
    came_back = _away(document([0, 1], [1.0, 0.0], moves=9), 0, after_round=5, back_round=7)
    assert after(came_back)["p0"] > START_MU, "back before the end: ranked by the result"


def test_people_who_are_gone_never_gain_even_when_they_tie_among_themselves():
    doc = document([None, None, None], [0.0, 0.0, 1.0], left=(0, 1))
    rated = standings(doc)
    assert {s.subject for s in rated if s.gone} == {"p0", "p1"}
    before = {"p0": Rating(1200.0, 300.0), "p1": Rating(1900.0, 300.0)}
    moved = rate(before, rated)
    assert moved["p0"].mu <= 1200.0 and moved["p1"].mu < 1900.0 and moved["p2"].mu > START_MU


def test_the_stakes_are_what_each_ending_would_do_and_a_provisional_rating_moves_far():
    current = {"new": Rating(), "settled": Rating(1500.0, 120.0), "other": Rating(1600.0, 200.0)}
    seated = [Standing(0, "new", 0, 0), Standing(1, "settled", 1, 0), Standing(2, "other", 2, 0)]
    shown = {s.subject: s for s in stakes(current, seated)}
    for winner in ("new", "settled", "other"):
        ranked = [
            Standing(s.seat, s.subject, s.side, 1 if s.subject == winner else 2) for s in seated
        ]
        moved = rate(current, ranked)
        assert moved[winner].mu - current[winner].mu == shown[winner].win
    assert shown["new"].win > 5 * shown["settled"].win > 0, "a provisional rating moves far"
    assert shown["new"].loss < 5 * shown["settled"].loss < 0
    drawn = rate(current, [Standing(s.seat, s.subject, s.side, 1) for s in seated])
    assert drawn["other"].mu - 1600.0 == shown["other"].draw < 0  # the strongest, held level
    assert stakes(current, seated[:1]) == [], "one side alone stakes nothing"
