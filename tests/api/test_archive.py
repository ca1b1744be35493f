"""Accounts, the archive and records over HTTP: on the embedded store with SQLite,
and on Redis with PostgreSQL."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from stacks_api.store.redis_connect import connect
from stacks_api.testing import create_database, drop_database

from .helpers import API, act, bearer, create, join, problem, view

PLAYERS = "/api/v1/players"


def archive_apps(request, make_app, prefix, tmp_path, **settings):  # type: ignore[no-untyped-def]
    """An app with an archive of its own: the embedded store with SQLite, or Redis
    with PostgreSQL (``request.param``), with the test's ``settings``."""
    if request.param == "memory+sqlite":
        yield make_app(DATABASE_URL=f"sqlite:///{tmp_path}/archive.sqlite3", **settings)
        return
    url = create_database(request.getfixturevalue("postgres_url"))
    redis_url = request.getfixturevalue("redis_url")
    made = make_app(REDIS_URL=redis_url, STORE_PREFIX=prefix, DATABASE_URL=url, **settings)
    yield made
    made.extensions["stacks_api.games"].jobs.stop()
    made.extensions["stacks_api.games"].archive.engine.dispose()
    drop_database(url)


@pytest.fixture(params=["memory+sqlite", "redis+postgresql"])
def app(request, make_app, prefix, tmp_path):  # type: ignore[no-untyped-def]
    yield from archive_apps(request, make_app, prefix, tmp_path)


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


def new_player(client: Any, name: str = "Ada") -> tuple[str, str]:
    response = client.post(PLAYERS, json={"name": name, "label": "laptop"})
    assert response.status_code == 201, response.json
    assert response.headers["Cache-Control"] == "no-store"
    return response.json["player"]["id"], response.json["key"]


def play_out(client: Any, game_id: str, token: str) -> dict[str, Any]:
    """Play the first legal action until the game is over; its last view."""
    for _ in range(500):
        seen = view(client, game_id, token)
        if seen["status"] != "active":
            return seen
        assert act(client, game_id, token, seen["you"]["legal_actions"][0]).status_code == 200
    raise AssertionError("the game did not end")


def archived(app: Any, game_id: str) -> None:
    """Wait until the archiver has archived the game (a bound, not a timing check)."""
    archive = app.extensions["stacks_api.games"].archive
    deadline = time.monotonic() + 30
    while not archive.games.archived([game_id]):
        assert time.monotonic() < deadline, "the game was never archived"
        time.sleep(0.05)


def forget_live_games(app: Any) -> None:
    """What Redis does once an archived game's 24 hours are over, now."""
    store = app.extensions["stacks_api.games"].store
    if store.kind == "memory":
        store._slots.clear()
        return
    client = connect(app.config["REDIS_URL"], 2.0).client
    for key in client.scan_iter(match=f"{app.config['STORE_PREFIX']}:*"):
        client.delete(key)


def game_against(client: Any, bot: str = "random") -> str:
    seats = [{}, {"bot": bot}]
    return create(client, variant="sequence", players=2, seats=seats)["game"]["id"]


def test_a_key_links_the_seat_it_joins_and_acts_for_it(client):
    player_id, key = new_player(client)
    game_id = game_against(client)
    joined = client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key))
    assert joined.status_code == 201, joined.json
    seen = view(client, game_id, key)
    assert seen["you"]["seat"] == joined.json["seat"] == 0
    assert seen["players"][0]["name"] == "Ada" and seen["players"][0]["player_id"] == player_id
    assert seen["players"][1]["player_id"] is None
    assert act(client, game_id, key, seen["you"]["legal_actions"][0]).status_code == 200
    # The seat's own token still acts too.
    assert view(client, game_id, joined.json["token"])["you"]["seat"] == 0


def test_an_account_holds_one_seat_of_a_game(client):
    _, key = new_player(client)
    game_id = create(client, variant="sequence", players=2)["game"]["id"]
    client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key))
    again = client.post(f"{API}/{game_id}/players", json={"name": "Twin"}, headers=bearer(key))
    problem(again, 409, "seat_taken")


def test_a_join_needs_a_name_or_a_key(client):
    game_id = game_against(client)
    problem(client.post(f"{API}/{game_id}/players", json={}), 422, "validation_error")


def test_a_revoked_key_is_refused_on_its_very_next_request(client):
    _, key = new_player(client)
    made = client.post(f"{PLAYERS}/me/keys", json={"label": "phone"}, headers=bearer(key))
    assert made.status_code == 201
    phone = made.json["key"]
    assert client.get(f"{PLAYERS}/me", headers=bearer(phone)).status_code == 200
    listed = client.get(f"{PLAYERS}/me/keys", headers=bearer(key)).json["keys"]
    assert [k["label"] for k in listed] == ["laptop", "phone"]
    assert all("key" not in k and "secret_hash" not in k for k in listed)
    gone = client.delete(f"{PLAYERS}/me/keys/{made.json['id']}", headers=bearer(key))
    assert gone.status_code == 204
    problem(client.get(f"{PLAYERS}/me", headers=bearer(phone)), 401, "unauthorized")
    game_id = game_against(client)
    problem(client.get(f"{API}/{game_id}", headers=bearer(phone)), 401, "unauthorized")


def test_a_key_revoked_after_its_view_was_sent_gets_no_view_again(client):
    _, key = new_player(client)
    made = client.post(f"{PLAYERS}/me/keys", json={"label": "phone"}, headers=bearer(key))
    phone = made.json["key"]
    game_id = game_against(client)
    joined = client.post(f"{API}/{game_id}/players", json={}, headers=bearer(phone))
    assert joined.status_code == 201
    seen = client.get(f"{API}/{game_id}", headers=bearer(phone))
    assert seen.status_code == 200 and seen.json["you"]["hand"]
    client.delete(f"{PLAYERS}/me/keys/{made.json['id']}", headers=bearer(key))
    problem(client.get(f"{API}/{game_id}", headers=bearer(phone)), 401, "unauthorized")
    problem(client.delete(f"{PLAYERS}/me/keys/{made.json['id']}", headers=bearer(key)), 404,
            "not_found")  # fmt: skip


def test_an_ended_game_is_archived_and_answers_after_the_live_store_let_it_go(app, client):
    player_id, key = new_player(client)
    game_id = game_against(client)
    client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key))
    problem(client.get(f"{API}/{game_id}/record"), 409, "game_not_active")
    last = play_out(client, game_id, key)
    archived(app, game_id)
    events = client.get(f"{API}/{game_id}/events").json
    record = client.get(f"{API}/{game_id}/record").json
    assert record["format"] == {"name": "stacks-record", "version": 3}
    assert record["events"] == events["events"]
    assert record["seats"][0]["player_id"] == player_id
    forget_live_games(app)
    assert app.extensions["stacks_api.games"].store.load(game_id) is None
    spectator = client.get(f"{API}/{game_id}").json
    assert (spectator["status"], spectator["version"]) == (last["status"], last["version"])
    assert spectator["board"] == last["board"]
    assert client.get(f"{API}/{game_id}/events").json == events
    assert client.get(f"{API}/{game_id}/events?after=3").json["events"] == events["events"][3:]
    assert client.get(f"{API}/{game_id}/record").json == record
    assert view(client, game_id, key)["you"]["seat"] == 0
    streamed = client.get(f"{API}/{game_id}/events", headers={"Accept": "text/event-stream"})
    assert streamed.data.count(b"data: ") == len(events["events"])


def test_a_table_cancelled_before_the_deal_is_not_kept_and_one_cancelled_after_is(app, client):
    waiting = create(client, variant="sequence", players=2)
    dealt = create(client, variant="sequence", players=2)
    tokens = [join(client, dealt["game"]["id"], name)["token"] for name in ("Ada", "Bo")]
    for game_id, token in [(waiting["game"]["id"], waiting["host_token"]),
                           *((dealt["game"]["id"], t) for t in tokens)]:  # fmt: skip
        assert client.delete(f"{API}/{game_id}", headers=bearer(token)).status_code == 200
    archived(app, dealt["game"]["id"])
    games = app.extensions["stacks_api.games"]
    assert games.store.archiving_backlog() == 0
    assert games.archive.games.archived([waiting["game"]["id"]]) == set()
    assert games.archive.games.document(dealt["game"]["id"])["status"] == "cancelled"


def test_a_players_history_lists_live_games_then_ended_ones_each_once(app, client):
    player_id, key = new_player(client)
    ended = []
    for _ in range(3):
        game_id = game_against(client)
        client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key))
        play_out(client, game_id, key)
        ended.append(game_id)
    live = game_against(client)
    client.post(f"{API}/{live}/players", json={}, headers=bearer(key))
    for game_id in ended:
        archived(app, game_id)
    first = client.get(f"{PLAYERS}/{player_id}/games?limit=2").json
    assert [g["id"] for g in first["games"]] == [live, ended[2]]
    assert first["games"][0]["status"] == "active" and first["games"][0]["ended_at"] is None
    rest = client.get(f"{PLAYERS}/{player_id}/games?limit=2&cursor={first['next']}").json
    assert [g["id"] for g in rest["games"]] == [ended[1], ended[0]] and rest["next"] is None
    # The ended games are still in the live store as well as archived: one a page,
    # each is listed once, in order, whatever page the archive puts it on.
    pages, after = [], ""
    while True:
        page = client.get(f"{PLAYERS}/{player_id}/games?limit=1{after}").json
        pages.append([g["id"] for g in page["games"]])
        if page["next"] is None:
            break
        after = f"&cursor={page['next']}"
    assert pages == [[live, ended[2]], [ended[1]], [ended[0]]]
    assert client.get(f"{PLAYERS}/{player_id}/games?variant=stacks").json["games"] == []
    problem(client.get(f"{PLAYERS}/{player_id}/games?cursor=nonsense"), 422, "validation_error")
    problem(client.get(f"{PLAYERS}/nobody/games"), 404, "not_found")
    lines = client.get(f"{PLAYERS}/{player_id}/games",
                       headers={"Accept": "application/x-ndjson"})  # fmt: skip
    assert lines.content_type == "application/x-ndjson"
    records = [json.loads(line) for line in lines.data.splitlines()]
    assert [r["id"] for r in records] == ended[::-1]
    assert all(r["format"]["name"] == "stacks-record" for r in records)


def test_a_table_left_before_the_deal_is_not_in_the_players_history(client):
    player_id, key = new_player(client)
    game_id = create(client, variant="sequence", players=2)["game"]["id"]
    client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key))
    assert [g["id"] for g in client.get(f"{PLAYERS}/{player_id}/games").json["games"]] == [game_id]
    left = client.post(f"{API}/{game_id}/leave", headers=bearer(key))
    assert left.status_code == 200 and view(client, game_id)["players"][0]["player_id"] is None
    for query in ("", "?result=won", "?opponent=nobody"):
        listed = client.get(f"{PLAYERS}/{player_id}/games{query}")
        assert listed.status_code == 200 and listed.json["games"] == []


def test_a_profile_is_public_and_an_unknown_player_is_not_found(client):
    player_id, _ = new_player(client, "Bo")
    profile = client.get(f"{PLAYERS}/{player_id}").json
    assert profile["name"] == "Bo" and "key" not in profile
    problem(client.get(f"{PLAYERS}/nobody"), 404, "not_found")
    problem(client.get(f"{PLAYERS}/me"), 401, "unauthorized")


@pytest.mark.parametrize("variant, players", [("sequence", 2), ("stacks", 3)])
def test_an_ended_game_can_be_stepped_through_version_by_version(app, client, variant, players):
    seats = [{"bot": "random"}] * players
    game_id = create(client, variant=variant, players=players, seats=seats)["game"]["id"]
    final = view(client, game_id)
    while final["status"] == "active":
        final = view(client, game_id)
    record = client.get(f"{API}/{game_id}/record").json
    versions = sorted({e["version"] for e in record["events"]})
    started = next(e["version"] for e in record["events"] if e["type"] == "started")
    shown = {v: client.get(f"{API}/{game_id}/replay/{v}").json for v in versions}
    # Stacks piles can be empty both at the start and at the end: its turn count always moves
    key = "board" if variant == "sequence" else "turns"
    assert shown[versions[-1]][key] == final[key]
    assert shown[versions[-1]]["status"] == "finished"
    assert shown[started]["status"] == "active" and shown[started][key] != final[key]
    assert [shown[v]["version"] for v in versions] == versions
    problem(client.get(f"{API}/{game_id}/replay/{versions[-1] + 1}"), 404, "not_found")


def test_a_live_game_has_no_replay(client):
    problem(client.get(f"{API}/{game_against(client)}/replay/1"), 409, "game_not_active")
