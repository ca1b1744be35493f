"""Tournaments over HTTP: a swiss of bots run to its end by the workers' steps, people
seated in their games, and every refusal; on the embedded store with SQLite and on
Redis with PostgreSQL."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Any

import pytest

from stacks_api.model.tournaments import Tournament
from stacks_api.service.tournaments import GATHER_S

from .helpers import API, act, bearer, problem, view
from .test_archive import archive_apps, new_player

TOURNAMENTS = "/api/v1/tournaments"
# Tournaments start an hour from now: the test steps them (as if it were then) once
# every entry is in, not the app's own workers while they are coming in.
LATER = 3600.0


@pytest.fixture(params=["memory+sqlite", "redis+postgresql"])
def app(request, make_app, prefix, tmp_path):  # type: ignore[no-untyped-def]
    yield from archive_apps(request, make_app, prefix, tmp_path)


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


def swiss(client: Any, key: str, **body: Any) -> dict[str, Any]:
    made = client.post(TOURNAMENTS, headers=bearer(key), json={
        "variant": "sequence", "system": "swiss", "rounds": 3,
        "starts_at": time.time() + LATER, **body})  # fmt: skip
    assert made.status_code == 201, made.json
    return made.json


def enter_bots(client: Any, key: str, tournament_id: str, count: int, bot: str = "random"):
    entered = client.post(f"{TOURNAMENTS}/{tournament_id}/players", headers=bearer(key),
                          json={"bot": bot, "count": count})  # fmt: skip
    assert entered.status_code == 201, entered.json
    return entered.json


def run_to_the_end(
    app: Any, tournament_id: str, stepping: int = 1, at: float | None = None
) -> dict[str, Any]:
    """Step the tournament (``stepping`` threads at once, as several workers would)
    until it has finished, telling each step the time is now (or ``at``); bounded,
    not timed."""
    service = app.extensions["stacks_api.games"]
    deadline = time.monotonic() + 120
    failures: list[BaseException] = []

    def steps() -> None:
        try:
            while service.tournaments.get(tournament_id)["status"] != "finished":
                assert time.monotonic() < deadline, "the tournament did not finish"
                service.tournaments.step(at or time.time() + LATER)
                time.sleep(0.02)
        except BaseException as err:  # reported below, in the test's own thread
            failures.append(err)

    threads = [threading.Thread(target=steps) for _ in range(stepping)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    return service.tournaments.get(tournament_id)


def test_a_swiss_of_bots_runs_to_its_end_with_no_pair_twice(app, client):
    _, key = new_player(client)
    made = swiss(client, key, rounds=3)
    enter_bots(client, key, made["id"], 6)
    done = run_to_the_end(app, made["id"], stepping=2)
    assert done["status"] == "finished" and done["round"] == 3
    assert [len(r["tables"]) for r in done["pairings"]] == [3, 3, 3]
    met = [frozenset(t["seats"]) for r in done["pairings"] for t in r["tables"]]
    assert len(met) == len(set(met)), "no pair met twice"
    points: dict[str, float] = {}
    for table in (t for r in done["pairings"] for t in r["tables"]):
        for entry, scored in zip(table["seats"], table["points"], strict=True):
            points[entry] = points.get(entry, 0) + scored
        record = client.get(f"{API}/{table['game_id']}/record").json
        assert record["tournament"] == {"id": made["id"], "round": table["round"]}
        assert record["result"]["scores"] == table["points"]
    assert {s["entry"]: s["points"] for s in done["standings"]} == points
    ranked = [s["points"] for s in done["standings"]]
    assert ranked == sorted(ranked, reverse=True)


def test_an_odd_field_gives_one_bye_a_round_never_twice(app, client):
    _, key = new_player(client)
    made = swiss(client, key, rounds=3)
    enter_bots(client, key, made["id"], 5)
    done = run_to_the_end(app, made["id"])
    byes = [t["seats"][0] for r in done["pairings"] for t in r["tables"] if t["game_id"] is None]
    assert len(byes) == 3 and len(set(byes)) == 3
    for standing in done["standings"]:
        assert standing["points"] >= standing["byes"]


def test_a_person_is_seated_in_their_game_and_plays_it_with_their_key(app, client):
    player_id, key = new_player(client)
    made = swiss(client, key, rounds=1)
    joined = client.post(f"{TOURNAMENTS}/{made['id']}/players", headers=bearer(key), json={})
    assert joined.status_code == 201, joined.json
    enter_bots(client, key, made["id"], 1)
    service = app.extensions["stacks_api.games"]
    told, first = service.account_feed.first(player_id, None)
    assert not [e for e in first if e["type"].startswith("tournament")]
    service.tournaments.step(time.time() + LATER)
    table = service.tournaments.get(made["id"])["pairings"][0]["tables"][0]
    told.checked_at = 0  # the account's tournaments are looked at every few seconds
    heard = {e["type"]: e for e in service.account_feed.poll(player_id, told)}
    assert heard["tournament_started"]["tournament_id"] == made["id"]
    assert heard["tournament_round"]["game_id"] == table["game_id"]
    assert heard["tournament_round"]["round"] == 1 and "game_started" in heard
    seen = view(client, table["game_id"], key)
    assert seen["players"][seen["you"]["seat"]]["player_id"] == player_id
    assert seen["options"]["turn_seconds"] == 60
    for _ in range(500):
        seen = view(client, table["game_id"], key)
        if seen["status"] != "active":
            break
        act(client, table["game_id"], key, seen["you"]["legal_actions"][0])
    done = run_to_the_end(app, made["id"])
    mine = next(s for s in done["standings"] if s["entry"] == player_id)
    assert mine["games"] == 1 and mine["points"] in (0.0, 0.5, 1.0)
    told.checked_at = 0
    heard = [e["type"] for e in service.account_feed.poll(player_id, told)]
    assert heard.count("tournament_ended") == 1 and "tournament_started" not in heard


def test_a_withdrawn_player_is_not_paired_again(app, client):
    _, key = new_player(client)
    made = swiss(client, key, rounds=2)
    enter_bots(client, key, made["id"], 4)
    gone = client.delete(f"{TOURNAMENTS}/{made['id']}/players?entry=bot:random:4",
                         headers=bearer(key))  # fmt: skip
    assert gone.status_code == 200, gone.json
    done = run_to_the_end(app, made["id"])
    seated = {e for r in done["pairings"] for t in r["tables"] for e in t["seats"]}
    assert "bot:random:4" not in seated


def test_tournaments_are_listed_by_status(client):
    _, key = new_player(client)
    later = swiss(client, key, starts_at=time.time() + 3600)
    listed = client.get(TOURNAMENTS).json["tournaments"]
    assert later["id"] in [t["id"] for t in listed]
    assert all("entries" not in t for t in listed)


def test_bad_requests_get_clear_problems(client):
    _, key = new_player(client)
    _, other = new_player(client, "Bo")
    body = {"variant": "sequence", "system": "swiss", "rounds": 3, "starts_at": 0}
    problem(client.post(TOURNAMENTS, json=body), 401, "unauthorized")
    problem(client.post(TOURNAMENTS, headers=bearer(key), json={**body, "variant": "chess"}),
            422, "validation_error")  # fmt: skip
    problem(client.post(TOURNAMENTS, headers=bearer(key), json={**body, "system": "arena"}),
            422, "validation_error")  # an arena needs its minutes  # fmt: skip
    problem(client.post(TOURNAMENTS, headers=bearer(key), json={**body, "system": "knockout"}),
            422, "validation_error")  # fmt: skip
    problem(client.post(TOURNAMENTS, headers=bearer(key), json={**body, "rounds": None}),
            422, "validation_error")  # fmt: skip
    problem(client.post(TOURNAMENTS, headers=bearer(key), json={**body, "name": "a\u202eb"}),
            422, "validation_error")  # fmt: skip
    problem(client.post(TOURNAMENTS, headers=bearer(key), json={**body, "players": 5}),
            422, "validation_error")  # fmt: skip
    made = swiss(client, key, max_players=2)
    players = f"{TOURNAMENTS}/{made['id']}/players"
    problem(client.get(f"{TOURNAMENTS}/nope"), 404, "not_found")
    problem(client.post(players, headers=bearer(other), json={"bot": "random"}), 403, "forbidden")
    problem(client.post(players, headers=bearer(key), json={"bot": "nobody"}), 422,
            "validation_error")  # fmt: skip
    assert client.post(players, headers=bearer(other), json={}).status_code == 201
    problem(client.post(players, headers=bearer(other), json={}), 409, "already_entered")
    assert client.post(players, headers=bearer(key), json={}).status_code == 201
    problem(client.post(players, headers=bearer(key), json={"bot": "random"}), 409,
            "tournament_full")  # fmt: skip
    problem(client.delete(f"{players}?entry=bot:random:9", headers=bearer(key)), 404, "not_found")
    problem(client.delete(f"{players}?entry=someone", headers=bearer(other)), 403, "forbidden")


@pytest.fixture
def clock(app):
    """The service's clock, set by the test; the app's own runners and chores are
    stopped, so the test moves the clock and plays the workers itself."""
    now = [time.time()]
    service = app.extensions["stacks_api.games"]
    service.table.clock = lambda: now[0]
    service.jobs.stop()
    return now


def test_a_no_show_forfeits_and_a_game_cannot_be_aborted_cancelled_or_hinted(app, client, clock):
    absent_id, absent = new_player(client, "Absent")
    present_id, present = new_player(client, "Present")
    made = swiss(client, present, rounds=1, clock=15, starts_at=clock[0])
    for key in (absent, present):
        assert client.post(f"{TOURNAMENTS}/{made['id']}/players", headers=bearer(key),
                           json={}).status_code == 201  # fmt: skip
    service = app.extensions["stacks_api.games"]
    service.tournaments.step(clock[0])
    game_id = service.tournaments.get(made["id"])["pairings"][0]["tables"][0]["game_id"]
    problem(client.post(f"{API}/{game_id}/abort", headers=bearer(present)), 403, "forbidden")
    problem(client.delete(f"{API}/{game_id}", headers=bearer(present)), 403, "forbidden")
    problem(client.get(f"{API}/{game_id}/hint", headers=bearer(present)), 403, "hints_off")
    assert view(client, game_id, present)["tournament"] == {"id": made["id"], "round": 1}
    for _ in range(4):
        seen = view(client, game_id, present)
        if seen["status"] != "active":
            break
        if seen["you"]["seat"] in seen["to_move"]:
            act(client, game_id, present, seen["you"]["legal_actions"][0])
        else:  # the absent player's turn: its clock runs out, then the workers look
            clock[0] += 16
            service.turns.advance(game_id)
            service.tournaments.step(clock[0])
    ended = view(client, game_id, present)
    assert ended["status"] == "finished"
    absent_seat = next(p["seat"] for p in ended["players"] if p["player_id"] == absent_id)
    assert ended["players"][absent_seat]["resigned"] and ended["players"][absent_seat]["score"] == 0
    told = [e for e in client.get(f"{API}/{game_id}/events").json["events"]
            if e["type"] == "resigned"]  # fmt: skip
    assert [(e["seat"], e.get("no_show")) for e in told] == [(absent_seat, True)]
    service.tournaments.step(clock[0])
    done = service.tournaments.get(made["id"])
    assert done["status"] == "finished"
    assert done["standings"][0]["entry"] == present_id


def arena_points(results: list[float]) -> int:
    """Arena points by hand: 2 a win, 1 a draw, both doubled after two wins in a row."""
    total, run = 0, 0
    for result in results:
        total += (2 if run >= 2 else 1) * {1.0: 2, 0.5: 1, 0.0: 0}[result]
        run = run + 1 if result == 1.0 else 0
    return total


def test_an_arena_pairs_players_as_they_come_free_until_its_time_is_up(app, client):
    _, key = new_player(client)
    made = client.post(TOURNAMENTS, headers=bearer(key), json={
        "variant": "sequence", "system": "arena", "minutes": 5,
        "starts_at": time.time() + LATER})  # fmt: skip
    assert made.status_code == 201, made.json
    arena = made.json["id"]
    enter_bots(client, key, arena, 5)
    service = app.extensions["stacks_api.games"]
    deadline = time.monotonic() + 120
    while service.tournaments.get(arena)["round"] < 6:  # six waves of pairings
        assert time.monotonic() < deadline, "the arena stopped pairing"
        service.tournaments.step(time.time() + LATER)
        time.sleep(0.02)
    done = run_to_the_end(app, arena, stepping=1, at=time.time() + LATER + 301)
    tables = [t for r in done["pairings"] for t in r["tables"]]
    last: dict[str, str] = {}
    for table in tables:
        a, b = table["seats"]
        assert last.get(a) != b and last.get(b) != a, "the same opponent twice in a row"
        last[a], last[b] = b, a
    results: dict[str, list[float]] = {e["entry"]: [] for e in done["entries"]}
    for table in tables:
        for entry, scored in zip(table["seats"], table["points"], strict=True):
            results[entry].append(scored)
    assert {s["entry"]: s["points"] for s in done["standings"]} == {
        entry: arena_points(r) for entry, r in results.items()
    }
    ranked = [s["points"] for s in done["standings"]]
    assert ranked == sorted(ranked, reverse=True)


def replayed(tournament: Tournament) -> list[list[tuple[str, ...]]]:
    """Each round's tables as an undisturbed run pairs them from the same entries and
    the results of the rounds before (``stacks_api.competition.swiss``), in seat order."""
    from stacks_api.competition.swiss import pair
    from stacks_api.service.standings import entrants

    rounds = []
    for number in range(1, tournament.round + 1):
        earlier = tuple(t for t in tournament.tables if t.round < number)
        made = pair(entrants(replace(tournament, tables=earlier)), tournament.players)
        rounds.append([*(t.seats for t in made.tables), *((b,) for b in made.byes)])
    return rounds


def recorded(tournament: dict[str, Any]) -> list[list[tuple[str, ...]]]:
    return [[tuple(t["seats"]) for t in r["tables"]] for r in tournament["pairings"]]


class Died(Exception):
    """A worker's process dying at that very line."""


def test_a_worker_that_dies_while_making_a_round_changes_no_pairing(app, client, monkeypatch):
    from stacks_api.service.tournaments import Tournaments

    _, key = new_player(client)
    made = swiss(client, key, rounds=3)
    enter_bots(client, key, made["id"], 7)
    service = app.extensions["stacks_api.games"]
    # Nobody but this test steps the tournament. The archiver's thread may be inside a
    # pass that began before (and would step it once this test starts it): once a pass
    # that does nothing has run, no earlier one is left.
    archiver = service.jobs.archiver
    archiver.start()
    passed = threading.Event()
    archiver.tournaments = lambda now: passed.set()
    assert passed.wait(60), "the archiver made no pass"
    archiver.tournaments = None
    make_game, add_round = Tournaments._make_game, service.tournaments.book.add_round

    def dies_after_the_round_is_written(self, tournament, table):  # type: ignore[no-untyped-def]
        raise Died

    # Round 1: the worker dies once the round is written, before any game is made.
    monkeypatch.setattr(Tournaments, "_make_game", dies_after_the_round_is_written)
    with pytest.raises(Died):
        service.tournaments.step(time.time() + LATER)
    written = service.tournaments.get(made["id"])
    assert written["round"] == 1 and all(
        service.store.load(t["game_id"]) is None for t in written["pairings"][0]["tables"]
        if t["game_id"])  # fmt: skip
    monkeypatch.setattr(Tournaments, "_make_game", make_game)
    service.tournaments.step(time.time() + LATER)  # the next worker makes the same games
    again = service.tournaments.get(made["id"])
    assert recorded(again) == recorded(written)
    assert all(service.store.load(t["game_id"]) is not None
               for t in again["pairings"][0]["tables"] if t["game_id"])  # fmt: skip
    service.jobs.wake()  # the bots play round 1 in the background

    # Round 2: a worker dies while writing the round: nothing of it is kept.
    def dies_while_writing(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise Died

    deadline = time.monotonic() + 60
    while True:
        monkeypatch.setattr(service.tournaments.book, "add_round", dies_while_writing)
        try:
            service.tournaments.step(time.time() + LATER)
        except Died:
            break
        assert time.monotonic() < deadline, "round 1 never ended"
        time.sleep(0.05)
    monkeypatch.setattr(service.tournaments.book, "add_round", add_round)
    assert service.tournaments.get(made["id"])["round"] == 1
    done = run_to_the_end(app, made["id"])
    assert done["round"] == 3
    kept = service.archive.tournaments.get(made["id"])
    for number, (shown, replay) in enumerate(zip(recorded(done), replayed(kept), strict=True), 1):
        assert shown == replay, f"round {number} was paired as an undisturbed run pairs it"


def test_an_account_has_at_most_five_upcoming_tournaments(client):
    _, key = new_player(client)
    for _ in range(5):
        swiss(client, key)
    body = {"variant": "sequence", "system": "swiss", "rounds": 3, "starts_at": time.time()}
    problem(client.post(TOURNAMENTS, headers=bearer(key), json=body), 409, "too_many_tournaments")
    _, other = new_player(client, "Bo")
    swiss(client, other)  # one account's cap is its own


def test_a_tournament_without_two_entries_at_its_start_is_cancelled_and_never_read_again(
    app, client
):
    _, key = new_player(client)
    lonely = swiss(client, key)
    enter_bots(client, key, lonely["id"], 1)
    body = {"variant": "sequence", "system": "arena", "minutes": 5,
            "starts_at": time.time() + LATER}  # fmt: skip
    arena = client.post(TOURNAMENTS, headers=bearer(key), json=body).json
    service = app.extensions["stacks_api.games"]
    gathering = time.time() + LATER + 60
    service.tournaments.step(gathering)  # it waits a while past its start for a second
    assert client.get(f"{TOURNAMENTS}/{lonely['id']}").json["status"] == "upcoming"
    at = time.time() + LATER + GATHER_S
    assert set(service.archive.tournaments.live(at)) >= {lonely["id"], arena["id"]}
    service.tournaments.step(at)
    for made in (lonely, arena):
        shown = client.get(f"{TOURNAMENTS}/{made['id']}").json
        assert shown["status"] == "cancelled" and shown["ended_at"] == at and shown["round"] == 0
    assert not {lonely["id"], arena["id"]} & set(service.archive.tournaments.live(at + 60))
    problem(client.post(f"{TOURNAMENTS}/{lonely['id']}/players", headers=bearer(key), json={}),
            409, "tournament_over")  # fmt: skip


def test_upcoming_tournaments_are_listed_most_entrants_first_a_page_at_a_time(client):
    _, key = new_player(client)
    made = [swiss(client, key, starts_at=time.time() + LATER + n) for n in range(3)]
    enter_bots(client, key, made[2]["id"], 3)
    enter_bots(client, key, made[0]["id"], 1)
    first = client.get(f"{TOURNAMENTS}?status=upcoming&limit=2").json
    assert [t["id"] for t in first["tournaments"]][:2] == [made[2]["id"], made[0]["id"]]
    assert [t["entrants"] for t in first["tournaments"]] == [3, 1] and first["next"]
    rest = client.get(f"{TOURNAMENTS}?status=upcoming&limit=2&cursor={first['next']}").json
    assert [t["id"] for t in rest["tournaments"]] == [made[1]["id"]] and rest["next"] is None
    problem(client.get(f"{TOURNAMENTS}?status=upcoming&cursor=nonsense"), 422,
            "validation_error")  # fmt: skip
    problem(client.get(f"{TOURNAMENTS}?status=gone"), 422, "validation_error")


def test_a_creator_enters_at_most_eight_bots_and_their_games_spend_its_budget(app, client):
    _, key = new_player(client)
    made = swiss(client, key, rounds=1)
    enter_bots(client, key, made["id"], 6)
    refused = client.post(f"{TOURNAMENTS}/{made['id']}/players", headers=bearer(key),
                          json={"bot": "random", "count": 3})  # fmt: skip
    assert problem(refused, 409, "too_many_bots")["detail"].endswith("(6 are in)")
    enter_bots(client, key, made["id"], 2)
    service = app.extensions["stacks_api.games"]
    service.tournaments.bots_alone = "2/hour"  # the games of bots alone it may make
    service.tournaments.step(time.time() + LATER)
    tables = client.get(f"{TOURNAMENTS}/{made['id']}").json["pairings"][0]["tables"]
    made_games = [t for t in tables if client.get(f"{API}/{t['game_id']}").status_code == 200]
    assert len(tables) == 4 and len(made_games) == 2, "the other two wait for the budget"


def test_its_creator_starts_a_tournament_early_once_two_are_in(app, client):
    _, creator = new_player(client, "Creator")
    _, stranger = new_player(client, "Stranger")
    made = swiss(client, creator, rounds=1)
    start = f"{TOURNAMENTS}/{made['id']}/start"
    problem(client.post(start, headers=bearer(creator)), 409, "too_few_entries")
    enter_bots(client, creator, made["id"], 2)
    problem(client.post(start), 401, "unauthorized")
    problem(client.post(start, headers=bearer(stranger)), 403, "forbidden")
    problem(client.post(f"{TOURNAMENTS}/nope/start", headers=bearer(creator)), 404, "not_found")
    started = client.post(start, headers=bearer(creator))
    assert started.status_code == 200 and started.json["starts_at"] <= time.time()
    service = app.extensions["stacks_api.games"]
    service.tournaments.step(time.time())  # a worker's next step, with no hour to wait
    assert service.tournaments.get(made["id"])["status"] == "running"
    problem(client.post(start, headers=bearer(creator)), 409, "tournament_started")
