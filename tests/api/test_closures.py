"""Deleting or closing an account reaches everything: tournaments, challenges, live
games, webhooks and seat tokens; on the embedded store with SQLite and on Redis
with PostgreSQL."""

from __future__ import annotations

import time
from typing import Any

from stacks_api.outbound.addresses import Allowed

from . import test_archive
from .helpers import API, act, bearer, create, problem, view
from .test_accounts_public import admin
from .test_archive import new_player
from .test_challenges import ROOT, challenge
from .test_tournaments import TOURNAMENTS, swiss

app, client = test_archive.app, test_archive.client


def _entries(client: Any, tournament_id: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = client.get(f"{TOURNAMENTS}/{tournament_id}").json["entries"]
    return entries


def test_a_deleted_account_leaves_its_tournaments_and_its_challenges_die(app, client):
    ada, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    _, cy_key = new_player(client, "Cy")
    upcoming = swiss(client, bo_key)["id"]
    joined = client.post(f"{TOURNAMENTS}/{upcoming}/players", headers=bearer(ada_key), json={})
    assert joined.status_code == 201, joined.json
    sent = challenge(client, ada_key, bo)["challenge"]
    received = challenge(client, cy_key, ada)["challenge"]

    assert client.delete("/api/v1/players/me", headers=bearer(ada_key)).status_code == 204

    shown = client.get(f"{TOURNAMENTS}/{upcoming}").json
    assert ada not in str(shown) and "Ada" not in str(shown)
    refused = problem(client.post(f"{ROOT}/challenges/{sent['id']}/accept", json={},
                                  headers=bearer(bo_key)), 409, "challenge_closed")  # fmt: skip
    assert "cancelled" in refused["detail"] or "closed" in refused["detail"]
    mine = client.get(f"{ROOT}/challenges", headers=bearer(cy_key)).json["challenges"]
    assert {c["id"]: c["status"] for c in mine}[received["id"]] == "cancelled"
    theirs = client.get(f"{ROOT}/challenges", headers=bearer(bo_key)).json["challenges"]
    assert {c["id"]: c["status"] for c in theirs}[sent["id"]] == "cancelled"


def _closed_refuses(client: Any, game_id: str, token: str) -> bool:
    """Whether the seat's token is refused as a closed account's (each process asks
    the database again within seconds)."""
    said = client.post(f"{API}/{game_id}/chat", json={"text": "hi"}, headers=bearer(token))
    return bool(said.status_code == 403 and said.json["code"] == "account_closed")


def test_a_closed_accounts_seat_tokens_are_refused_and_its_games_go_on_without_it(app, client):
    ada, ada_key = new_player(client, "Ada")
    bo, bo_key = new_player(client, "Bo")
    game_id = create(client, variant="sequence", players=2, seats=[{}, {}])["game"]["id"]
    ada_token = client.post(f"{API}/{game_id}/players", json={},
                            headers=bearer(ada_key)).json["token"]  # fmt: skip
    bo_token = client.post(f"{API}/{game_id}/players", json={},
                           headers=bearer(bo_key)).json["token"]  # fmt: skip
    waiting = challenge(client, ada_key, bo)["challenge"]
    tournament = swiss(client, bo_key)["id"]
    client.post(f"{TOURNAMENTS}/{tournament}/players", headers=bearer(ada_key), json={})
    games = app.extensions["stacks_api.games"]
    games.webhooks.allowed = Allowed.parse("127.0.0.1")
    hook = client.post("/api/v1/players/me/webhooks", headers=bearer(ada_key),
                       json={"url": "http://127.0.0.1:9/x", "events": ["your_turn"]})  # fmt: skip
    assert hook.status_code == 201, hook.json

    closed = admin(app, "close", ada, "--reason", "abuse in chat")
    assert closed.returncode == 0, closed.stderr
    deadline = time.monotonic() + 30  # a bound for a broken run, not a timing check
    while not _closed_refuses(client, game_id, ada_token):
        assert time.monotonic() < deadline, "the closed account's seat still chats"
        time.sleep(0.2)
    seen = view(client, game_id, bo_token)
    problem(act(client, game_id, ada_token, {"type": "pass"}), 403, "account_closed")
    assert ada not in str(_entries(client, tournament)), "gone from an upcoming tournament"
    assert games.archive.webhooks.of(ada) == []

    games.closures.sweep(time.time())  # what the workers' chores do within seconds
    after = client.get(f"{API}/{game_id}").json
    assert after["version"] > seen["version"]
    assert after["players"][0]["left"] is True and after["status"] == "active"
    events = client.get(f"{API}/{game_id}/events?after={seen['version']}").json["events"]
    assert {"type": "left", "seat": 0} in [{k: e[k] for k in ("type", "seat")} for e in events
                                           if e["type"] == "left"]  # fmt: skip
    listed = client.get(f"{ROOT}/challenges", headers=bearer(bo_key)).json["challenges"]
    assert {c["id"]: c["status"] for c in listed}[waiting["id"]] == "cancelled"
    games.closures.sweep(time.time())  # again: settling twice leaves nothing twice
    events = client.get(f"{API}/{game_id}/events?after=0").json["events"]
    assert [e["type"] for e in events].count("left") == 1
