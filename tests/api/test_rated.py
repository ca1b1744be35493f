"""Rated games over HTTP: who may sit, what the end does to ratings, the leaderboard."""

from __future__ import annotations

import time
from typing import Any

import pytest

from . import test_archive
from .helpers import API, act, bearer, create, problem
from .test_archive import archived, new_player, play_out

# The archive's app and client: the embedded store with SQLite, Redis with PostgreSQL.
app, client = test_archive.app, test_archive.client

ENTROPY = "5eed" * 4


def seat_with_key(client: Any, game_id: str, key: str) -> dict[str, Any]:
    response = client.post(f"{API}/{game_id}/players", json={"entropy": ENTROPY},
                           headers=bearer(key))  # fmt: skip
    assert response.status_code == 201, response.json
    return response.json


def test_a_rated_game_is_dealt_by_the_server_and_seats_only_players_with_entropy(client):
    problem(client.post(API, json={"variant": "sequence", "players": 2, "rated": True,
                                   "seed": 4}), 422, "validation_error")  # fmt: skip
    body = create(client, variant="sequence", players=2, rated=True)
    assert body["game"]["rated"] is True and body["game"]["practice"] is False
    game_id = body["game"]["id"]
    refused = problem(client.post(f"{API}/{game_id}/players",
                                  json={"name": "Ann", "entropy": ENTROPY}), 422,
                      "validation_error")  # fmt: skip
    assert "player key" in refused["detail"]
    _, key = new_player(client)
    refused = problem(client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key)),
                      422, "validation_error")  # fmt: skip
    assert "entropy" in refused["detail"]
    seat_with_key(client, game_id, key)
    listed = client.get(f"{API}?status=waiting").json["games"]
    assert next(g for g in listed if g["id"] == game_id)["rated"] is True


def test_a_finished_rated_game_changes_each_rating_once_and_says_so(app, client):
    ada, ada_key = new_player(client, "Ada")
    game_id = create(client, variant="sequence", players=2, rated=True,
                     seats=[{}, {"bot": "random"}])["game"]["id"]  # fmt: skip
    token = seat_with_key(client, game_id, ada_key)["token"]
    live = client.get(f"{API}/{game_id}/ratings").json
    assert live["state"] == "live"
    stakes = {s["player_id"] or f"bot:{s['bot']}": s for s in live["stakes"]}
    assert stakes[ada]["rating"] == 1500 and stakes[ada]["provisional"] is True
    assert stakes[ada]["win"] > 0 > stakes[ada]["loss"]
    final = play_out(client, game_id, token)
    archived(app, game_id)
    answer = client.get(f"{API}/{game_id}/ratings")
    assert answer.status_code == 200 and answer.json["state"] == "rated"
    changes = {c["subject"]: c for c in answer.json["changes"]}
    mine, bot = changes[ada], changes["bot:random"]
    team = final["result"].get("winner_team")
    if team is None:  # a draw (every seat passed in a row): equal ranks
        assert mine["rank"] == bot["rank"] == 1
    else:
        won = team == 0  # Ada sits in seat 0, team 0
        assert (mine["rank"], bot["rank"]) == ((1, 2) if won else (2, 1))
        assert (mine["change"] > 0) == won and (bot["change"] > 0) == (not won)
        # What the game said was at stake before it is what it did (nothing rated between).
        for subject, change in ((ada, mine), ("bot:random", bot)):
            was = stakes[subject]
            assert change["before"] == was["rating"]
            assert change["after"] - was["rating"] == pytest.approx(
                was["win"] if change["rank"] == 1 else was["loss"], abs=1
            )
    assert mine["name"] == "Ada" and mine["player_id"] == ada and bot["bot"] == "random"
    profile = client.get(f"/api/v1/players/{ada}").json
    assert profile["ratings"]["sequence"] == {
        "rating": mine["after"], "uncertainty": profile["ratings"]["sequence"]["uncertainty"],
        "games": 1, "provisional": True,
    }  # fmt: skip
    points = client.get(f"/api/v1/players/{ada}/ratings/sequence").json["points"]
    assert [p["game_id"] for p in points] == [game_id] and points[0]["rating"] == mine["after"]
    assert client.get("/api/v1/leaderboard?variant=sequence").json["players"] == []  # provisional
    ladder = client.get("/api/v1/leaderboard/bots?variant=sequence").json["levels"]
    assert [(b["level"], b["rating"], b["games"]) for b in ladder] == [("random", bot["after"], 1)]


def test_ratings_of_casual_games_and_unknown_things(client):
    game_id = create(client, variant="sequence", players=2)["game"]["id"]
    assert client.get(f"{API}/{game_id}/ratings").json == {
        "game_id": game_id, "state": "casual", "changes": [], "stakes": []}  # fmt: skip
    problem(client.get(f"{API}/nope/ratings"), 404, "not_found")
    problem(client.get("/api/v1/leaderboard"), 422, "validation_error")
    problem(client.get("/api/v1/leaderboard?variant=chess"), 422, "validation_error")
    problem(client.get("/api/v1/players/nobody/ratings/sequence"), 404, "not_found")
    player, _ = new_player(client)
    problem(client.get(f"/api/v1/players/{player}/ratings/chess"), 404, "not_found")


def test_a_bot_level_starts_where_the_ladder_puts_it(app, client):
    from stacks_api import variants
    from stacks_api.competition.bot_ratings import LEVEL_SIGMA, start

    table = variants.get("sequence").level_ratings
    assert table["beginner"] < table["easy"] < table["medium"] < table["strong"]
    assert start("bot:greedy", "sequence").mu == table["medium"]  # an earlier name
    assert start("bot:beginner", "sequence").sigma == LEVEL_SIGMA
    assert start("someone", "sequence").mu == start("bot:random", "sequence").mu == 1500
    _, key = new_player(client, "Ed")
    game_id = create(client, variant="sequence", players=2, rated=True,
                     seats=[{}, {"bot": "beginner"}])["game"]["id"]  # fmt: skip
    token = seat_with_key(client, game_id, key)["token"]
    play_out(client, game_id, token)
    archived(app, game_id)
    changes = {
        c["bot"] or "person": c for c in client.get(f"{API}/{game_id}/ratings").json["changes"]
    }
    assert changes["beginner"]["before"] == round(table["beginner"])
    assert changes["person"]["before"] == 1500


def _clocked_rated_game(app: Any, client: Any, bot: str) -> tuple[list[float], str, str, str]:
    """A rated Sequence game of a new account against ``bot`` with a 10 s clock, the
    service's clock set by the test and its runners stopped (the test advances the
    game): the clock, the game, the account and its seat token."""
    service = app.extensions["stacks_api.games"]
    now = [time.time()]
    service.table.clock = lambda: now[0]
    service.jobs.stop()
    ada, key = new_player(client, "Ada")
    made = create(client, variant="sequence", players=2, rated=True,
                  options={"turn_seconds": 10}, seats=[{}, {"bot": bot}])  # fmt: skip
    game_id = made["game"]["id"]
    token = seat_with_key(client, game_id, key)["token"]
    return now, game_id, ada, token


def _run_out(app: Any, client: Any, now: list[float], game_id: str) -> None:
    """Let every clock of the game run out until it is over, then archive it."""
    service = app.extensions["stacks_api.games"]
    for _ in range(500):
        if client.get(f"{API}/{game_id}").json["status"] == "finished":
            break
        now[0] += 11
        service.turns.advance(game_id)
    assert client.get(f"{API}/{game_id}").json["status"] == "finished"
    service.archiving.drain(now[0], 100)
    assert service.archive.games.archived([game_id])


@pytest.mark.parametrize("bot", ["random", "beginner"])
def test_an_account_that_never_acts_against_a_bot_gains_nothing(app, client, bot):
    now, game_id, ada, _ = _clocked_rated_game(app, client, bot)
    _run_out(app, client, now, game_id)  # timeouts, then away: the stand-in plays it all
    events = [e["type"] for e in client.get(f"{API}/{game_id}/events?after=0").json["events"]]
    assert "timeout" in events and "away" in events
    assert client.get(f"{API}/{game_id}/ratings").json["state"] == "unrated"
    assert "sequence" not in client.get(f"/api/v1/players/{ada}").json["ratings"]


def test_a_person_away_to_the_end_ranks_last_whatever_the_stand_in_did(app, client):
    now, game_id, ada, token = _clocked_rated_game(app, client, "random")
    service = app.extensions["stacks_api.games"]
    own = 0
    while own < 5:  # five moves of Ada's own (a rated game's least), then she is gone
        seen = client.get(f"{API}/{game_id}", headers=bearer(token)).json
        if seen["to_move"] == [0]:
            assert act(client, game_id, token, seen["you"]["legal_actions"][0]).status_code == 200
            own += 1
        else:
            service.turns.advance(game_id)
    _run_out(app, client, now, game_id)
    answer = client.get(f"{API}/{game_id}/ratings").json
    assert answer["state"] == "rated"
    changes = {c["subject"]: c for c in answer["changes"]}
    assert changes[ada]["rank"] == 2 and changes["bot:random"]["rank"] == 1
    assert changes[ada]["change"] <= 0 < changes["bot:random"]["change"]
