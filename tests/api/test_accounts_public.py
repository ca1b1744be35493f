"""A player's data and the operators' moderation, over HTTP and ``stacks-api admin``:
export, deletion, reports, closing and renaming; on the embedded store with
SQLite and on Redis with PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

from sqlalchemy import insert

from stacks_api.archive.models import PlayerRating
from stacks_api.outbound.addresses import Allowed

from . import test_archive
from .helpers import API, bearer, create, join, problem
from .test_archive import archived, new_player, play_out

app, client = test_archive.app, test_archive.client
PLAYERS = "/api/v1/players"


def admin(app: Any, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": app.config["DATABASE_URL"], "REDIS_URL": "",
           "STACKS_STORE_PREFIX": app.config["STORE_PREFIX"]}  # fmt: skip
    if app.config["REDIS_URL"]:
        env["REDIS_URL"] = app.config["REDIS_URL"]
    return subprocess.run([sys.executable, "-m", "stacks_api.cli", "admin", *args], env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip


def finished_game(app: Any, client: Any, key: str, name: str | None = None) -> str:
    """A game of the key's account against a bot, played out and archived."""
    game_id = create(client, variant="sequence", players=2,
                     seats=[{}, {"bot": "random"}])["game"]["id"]  # fmt: skip
    body = {"name": name} if name else {}
    joined = client.post(f"{API}/{game_id}/players", json=body, headers=bearer(key))
    assert joined.status_code == 201, joined.json
    play_out(client, game_id, key)
    archived(app, game_id)
    return game_id


def export(client: Any, key: str) -> list[dict[str, Any]]:
    answer = client.get(f"{PLAYERS}/me/export", headers=bearer(key))
    assert answer.status_code == 200 and answer.mimetype == "application/x-ndjson"
    assert answer.headers["Cache-Control"] == "no-store"
    return [json.loads(line) for line in answer.data.splitlines()]


def test_an_export_holds_everything_kept_about_the_account_and_no_secret(app, client):
    ada, key = new_player(client, "Ada")
    bo, _ = new_player(client, "Bo")
    second = client.post(f"{PLAYERS}/me/keys", json={"label": "phone"}, headers=bearer(key)).json
    game_id = finished_game(app, client, key)
    client.post(f"{PLAYERS}/{bo}/reports", json={"reason": "slow"}, headers=bearer(key))
    token = client.post(f"{PLAYERS}/me/tokens", json={"label": "script", "scopes": ["read"]},
                        headers=bearer(key)).json["token"]  # fmt: skip
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    app.extensions["stacks_api.games"].archive.pushes.subscribe(
        ada, "https://push.example/s", keys["p256dh"], keys["auth"], ["your_turn"])  # fmt: skip
    quiet = {"from": "22:00", "to": "07:00", "tz": "UTC"}
    prefs = client.patch(f"{PLAYERS}/me/notifications", headers=bearer(key),
                         json={"quiet_hours": quiet})  # fmt: skip
    assert prefs.status_code == 200, prefs.json
    lines = export(client, key)
    assert [line["type"] for line in lines] == [
        "profile", "key", "key", "report", "grant", "push_subscription",
        "notification_preferences", "game"]  # fmt: skip
    assert lines[0]["id"] == ada and lines[0]["name"] == "Ada" and lines[0]["archived_games"] == 1
    assert {line["label"] for line in lines[1:3]} == {"laptop", "phone"}
    assert lines[3]["player_id"] == bo and lines[3]["reason"] == "slow"
    assert lines[4]["app"] == "script" and lines[4]["scopes"] == ["read"]
    assert lines[5]["endpoint"] == "https://push.example/s"
    assert lines[6]["quiet_hours"]["from"] == "22:00"
    assert lines[7]["record"]["id"] == game_id
    assert lines[7]["record"]["seats"][0]["player_id"] == ada
    text = json.dumps(lines)
    assert key not in text and second["key"] not in text and "secret" not in text
    assert token not in text and keys["p256dh"] not in text and keys["auth"] not in text
    problem(client.get(f"{PLAYERS}/me/export"), 401, "unauthorized")


def test_a_deleted_account_is_gone_but_its_games_stay_for_the_others(app, client):
    ada, key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    # Ada and Bo played each other: Bo still sees the game, with Ada's seat deleted.
    game_id = create(client, variant="sequence", players=2)["game"]["id"]
    for body, k in (({"name": "Ada!"}, key), ({}, bo_key)):
        assert (
            client.post(f"{API}/{game_id}/players", json=body, headers=bearer(k)).status_code == 201
        )
    # A live game refuses the deletion, and nothing changes.
    problem(client.delete(f"{PLAYERS}/me", headers=bearer(key)), 409, "games_live")
    assert client.get(f"{PLAYERS}/me", headers=bearer(key)).status_code == 200
    client.post(f"{API}/{game_id}/leave", headers=bearer(key))
    client.post(f"{API}/{game_id}/leave", headers=bearer(bo_key))
    engine = app.extensions["stacks_api.games"].archive.engine
    rating = {"subject": ada, "variant": "sequence", "mu": 30.0, "sigma": 2.0, "games": 20,
              "last_at": 2e9}  # fmt: skip
    with engine.begin() as connection:  # put Ada on the leaderboard
        connection.execute(insert(PlayerRating).values(rating))
    # (as if she had met enough opponents: tests/ratings checks that rule)
    app.extensions["stacks_api.games"].archive.ratings.opponents = 0
    board = client.get("/api/v1/leaderboard?variant=sequence").json["players"]
    assert [p["id"] for p in board] == [ada]
    app.extensions["stacks_api.games"].webhooks.allowed = Allowed.parse("127.0.0.1")
    hook = client.post(f"{PLAYERS}/me/webhooks", headers=bearer(key),
                       json={"url": "http://127.0.0.1:9/", "events": ["your_turn"]})  # fmt: skip
    assert hook.status_code == 201, hook.json
    seek = client.post("/api/v1/seeks", json={"variant": "sequence", "players": 2},
                       headers=bearer(key))  # fmt: skip
    assert seek.status_code in (201, 202), seek.json
    ended = create(client, variant="sequence", players=2, seats=[{}, {"bot": "random"}])
    played = ended["game"]["id"]
    assert client.post(f"{API}/{played}/players", json={}, headers=bearer(key)).status_code == 201
    said = client.post(f"{API}/{played}/chat", json={"text": "good luck"}, headers=bearer(key))
    assert said.status_code == 201, said.json  # her line is renamed with her seat
    play_out(client, played, key)
    archived(app, played)
    archived(app, game_id)

    # Archived, but the archiver may not have let go of the game yet: the refusal
    # says to try again (a bound, not a timing check).
    deadline = time.monotonic() + 30
    while (answer := client.delete(f"{PLAYERS}/me", headers=bearer(key))).status_code == 409:
        assert "being archived" in answer.json["detail"], answer.json
        assert time.monotonic() < deadline, "the archiver never let go of the game"
        time.sleep(0.05)
    assert answer.status_code == 204, answer.json
    problem(client.get(f"{PLAYERS}/{ada}"), 410, "player_deleted")
    problem(client.get(f"{PLAYERS}/me", headers=bearer(key)), 401, "unauthorized")
    problem(client.delete(f"{PLAYERS}/me", headers=bearer(key)), 401, "unauthorized")
    assert client.get("/api/v1/leaderboard?variant=sequence").json["players"] == []
    seeks = app.extensions["stacks_api.games"].store.seeks
    assert seeks.get(seek.json["id"]).status == "withdrawn"
    for gid in (game_id, played):
        record = client.get(f"{API}/{gid}/record").json
        assert record["seats"][0]["name"] == "deleted player"
        joined = [e for e in record["events"] if e["type"] == "joined" and e["seat"] == 0]
        assert [e["name"] for e in joined] == ["deleted player"]
        assert "Ada" not in json.dumps(record) and ada in json.dumps(record)
    shown = client.get(f"{API}/{game_id}", headers=bearer(bo_key)).json
    assert shown["players"][0]["name"] == "deleted player"
    mine = client.get(f"{PLAYERS}/{bo}/games").json["games"]
    assert any(g["id"] == game_id and g["seats"][0]["name"] == "deleted player" for g in mine)
    with engine.connect() as connection:
        hooks = connection.exec_driver_sql("SELECT count(*) FROM webhooks").scalar()
    assert hooks == 0


def test_reports_are_checked_limited_and_listed_for_the_operators(app, client):
    ada, key = new_player(client, "Ada")
    bo, _ = new_player(client, "Bo")
    url = f"{PLAYERS}/{bo}/reports"
    problem(client.post(url, json={"reason": "rude"}), 401, "unauthorized")
    problem(client.post(url, json={}, headers=bearer(key)), 422, "validation_error")
    problem(client.post(url, json={"reason": "x" * 501}, headers=bearer(key)), 422,
            "validation_error")  # fmt: skip
    problem(client.post(url, json={"reason": "rude", "game_id": "../x"}, headers=bearer(key)),
            422, "validation_error")  # fmt: skip
    problem(client.post(f"{PLAYERS}/{ada}/reports", json={"reason": "me"}, headers=bearer(key)),
            422, "validation_error")  # fmt: skip
    problem(client.post(f"{PLAYERS}/nobody/reports", json={"reason": "who"},
                        headers=bearer(key)), 404, "not_found")  # fmt: skip
    made = client.post(url, json={"reason": "called me names", "game_id": "g1"},
                       headers=bearer(key))  # fmt: skip
    assert made.status_code == 201 and made.json["player_id"] == bo
    for n in range(9):
        assert (
            client.post(url, json={"reason": f"again {n}"}, headers=bearer(key)).status_code == 201
        )
    problem(client.post(url, json={"reason": "one more"}, headers=bearer(key)), 429, "rate_limited")
    listed = admin(app, "reports", "--json")
    assert listed.returncode == 0, listed.stderr
    reports = [json.loads(line) for line in listed.stdout.splitlines()]
    assert len(reports) == 10 and reports[0]["reason"] == "called me names"
    assert reports[0]["name"] == "Bo" and reports[0]["reporter_id"] == ada
    assert admin(app, "resolve", reports[0]["id"]).returncode == 0
    assert len(admin(app, "reports", "--json").stdout.splitlines()) == 9
    assert admin(app, "resolve", "nope").returncode == 1


def test_a_closed_account_is_refused_and_a_rename_reaches_its_past_games(app, client):
    ada, key = new_player(client, "Ada")
    game_id = finished_game(app, client, key, name="Rude name")
    renamed = admin(app, "rename", ada, "Ada L.")
    assert renamed.returncode == 0, renamed.stderr
    assert "1 archived games" in renamed.stdout
    assert client.get(f"{PLAYERS}/{ada}").json["name"] == "Ada L."
    kept = app.extensions["stacks_api.games"].archive.games.document(game_id)
    assert kept["seats"][0]["name"] == "Ada L." and "Rude name" not in json.dumps(kept)
    if app.config["REDIS_URL"]:  # the embedded store is the server process's own
        record = client.get(f"{API}/{game_id}/record").json
        assert record == kept
    assert admin(app, "rename", ada, "bad\u200bname").returncode == 1
    assert admin(app, "rename", "nobody", "Name").returncode == 1
    assert admin(app, "close", ada).returncode == 2  # --reason is required
    closed = admin(app, "close", ada, "--reason", "abuse in chat")
    assert closed.returncode == 0, closed.stderr
    problem(client.get(f"{PLAYERS}/me", headers=bearer(key)), 403, "account_closed")
    game = create(client, variant="sequence", players=2)["game"]["id"]
    problem(client.post(f"{API}/{game}/players", json={}, headers=bearer(key)), 403,
            "account_closed")  # fmt: skip
    assert client.get(f"{PLAYERS}/{ada}").json["closed"] is True
    assert admin(app, "close", ada, "--reason", "again").returncode == 1
    join(client, game, "Someone else")  # the table itself is unaffected


def test_names_with_invisible_or_control_characters_are_refused(client):
    for name in ("a\u200bb", "\u202eevil", "tab\there", " Ada", "Ada ", "\u0301", "", "x" * 41):
        problem(client.post(PLAYERS, json={"name": name}), 422, "validation_error")
    for name in ("Ada", "Zoë", "李小龍", "O'Neil-2", "🙂 happy"):
        assert client.post(PLAYERS, json={"name": name}).status_code == 201, name
    # Names are shown, not identities: two accounts may share one (docs/api.md).
    assert client.post(PLAYERS, json={"name": "Ada"}).status_code == 201


def test_players_are_found_by_part_of_their_name_closest_first(app, client):
    ids = {name: new_player(client, name)[0] for name in ("Ada", "Adam", "Bo", "Lada", "Zo_e")}
    _, bo_key = new_player(client, "ada")  # another "ada": exact names first, both of them
    found = client.get(f"{PLAYERS}?name=ADA")
    assert found.status_code == 200 and found.headers["Cache-Control"] == "no-cache"
    names = [p["name"] for p in found.json["players"]]
    assert sorted(names[:2]) == ["Ada", "ada"] and names[2:] == ["Adam", "Lada"]
    assert all(p["ratings"] == {} and p["bot"] is False for p in found.json["players"])
    # LIKE's wildcards are plain characters here.
    assert [p["name"] for p in client.get(f"{PLAYERS}?name=o_").json["players"]] == ["Zo_e"]
    assert client.get(f"{PLAYERS}?name=%25%25").json["players"] == []
    # A closed or deleted account is not found.
    assert client.delete(f"{PLAYERS}/me", headers=bearer(bo_key)).status_code == 204
    assert [p["id"] for p in client.get(f"{PLAYERS}?name=ada&limit=1").json["players"]] == [
        ids["Ada"]
    ]
    for bad in ("", "?name=a", f"?name={'x' * 41}", "?name=ada&limit=0", "?name=ada&limit=51"):
        problem(client.get(f"{PLAYERS}{bad}"), 422, "validation_error")
