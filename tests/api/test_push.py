"""Web Push end to end: a subscription, encrypted and signed pushes of an account's
events (no card in them), a 410 that removes the subscription, and every refusal;
on the embedded store with SQLite and on Redis with PostgreSQL."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from stacks_api.service import pushes
from stacks_api.service.people import Times

from .helpers import API, bearer, create, problem
from .pushservice import PushService
from .receiver import Receiver
from .test_archive import archive_apps, new_player

PUSH = "/api/v1/players/me/push"
CARD = re.compile(r"\b(10|[2-9AJQK])[SHDC]\b")


@pytest.fixture(params=["memory+sqlite", "redis+postgresql"])
def app(request, make_app, prefix, tmp_path):  # type: ignore[no-untyped-def]
    fast = {"WEBHOOK_ALLOW": "127.0.0.1", "WEBHOOK_FIRST_DELAY_S": 0.05}
    yield from archive_apps(request, make_app, prefix, tmp_path, **fast)


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


@pytest.fixture
def service(client):  # type: ignore[no-untyped-def]
    made = PushService(server_key=client.get("/api/v1/push/key").json["public_key"])
    made.endpoint = made.start()
    yield made
    made.stop()


def wait_for(check: Any, timeout: float = 60) -> None:
    """Wait until ``check()`` holds (a bound for a broken run, not a timing check)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"still not so after {timeout} s"
        time.sleep(0.05)


def a_game_against_a_bot(client: Any, key: str) -> str:
    game_id = create(client, variant="sequence", players=2,
                     seats=[{}, {"bot": "random"}])["game"]["id"]  # fmt: skip
    assert client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key)).status_code == 201
    return str(game_id)


def test_a_turn_is_pushed_encrypted_and_signed_and_a_410_removes_the_subscription(
    client, service, monkeypatch
):
    people = client.application.extensions["stacks_api.games"].people
    monkeypatch.setattr(people, "times", Times(online_s=-1.0))  # nobody looks at a game
    _, key = new_player(client)
    made = client.post(PUSH, json={"endpoint": service.endpoint, "keys": service.keys},
                       headers=bearer(key))  # fmt: skip
    assert made.status_code == 201, made.json
    assert made.json["subscription"]["endpoint"] == service.endpoint
    assert "keys" not in made.json["subscription"] and service.keys["auth"] not in str(made.json)
    game_id = a_game_against_a_bot(client, key)
    wait_for(lambda: service.accepted() or service.failures)
    assert not service.failures, service.failures
    push = service.accepted()[0]
    assert set(push.plaintext) == {"type", "game_id", "title", "body", "url"}
    assert push.plaintext["game_id"] == game_id and push.plaintext["url"] == f"/play#game={game_id}"
    assert push.plaintext["type"] in ("your_turn", "game_ended")
    assert not CARD.search(str(push.plaintext)), "a push never holds a card"
    assert push.headers["topic"] == game_id
    assert push.headers["urgency"] == "high" and int(push.headers["ttl"]) > 0

    service.statuses = [410]  # the browser unsubscribed: its push service says so
    other = a_game_against_a_bot(client, key)
    wait_for(lambda: client.get(PUSH, headers=bearer(key)).json["subscriptions"] == [])
    assert any(r.status == 410 and r.plaintext["game_id"] == other for r in service.received)


def test_subscriptions_are_checked_kept_five_at_most_and_removed(client, app):
    _, key = new_player(client)
    mine = bearer(key)
    keys = PushService().keys
    problem(client.post(PUSH, json={"endpoint": "https://p.example/x", "keys": keys}), 401,
            "unauthorized")  # fmt: skip
    there = "https://p.example/x"
    bad_keys = {"p256dh": "x" * 87, "auth": "y" * 22}
    for body in ({}, {"endpoint": there}, {"endpoint": "not a url", "keys": keys},
                 {"endpoint": there, "keys": bad_keys},
                 {"endpoint": there, "keys": keys, "events": ["everything"]}):  # fmt: skip
        problem(client.post(PUSH, json=body, headers=mine), 422, "validation_error")
    app.extensions["stacks_api.games"].pushes.settings = pushes.PushSettings()  # nothing allowed
    problem(client.post(PUSH, json={"endpoint": "http://127.0.0.1:9/p", "keys": keys},
                        headers=mine), 422, "url_refused")  # fmt: skip
    app.extensions["stacks_api.games"].pushes.settings = pushes.PushSettings(
        allowed=pushes.Allowed.parse("127.0.0.1"))  # fmt: skip
    made = [client.post(PUSH, json={"endpoint": f"http://127.0.0.1:9/p{n}", "keys": keys},
                        headers=mine).json["subscription"]["id"] for n in range(6)]  # fmt: skip
    listed = [s["id"] for s in client.get(PUSH, headers=mine).json["subscriptions"]]
    assert listed == made[1:], "the oldest dropped"
    assert client.delete(f"{PUSH}/{made[3]}", headers=mine).status_code == 204
    problem(client.delete(f"{PUSH}/{made[3]}", headers=mine), 404, "not_found")
    _, other = new_player(client, "Bo")
    problem(client.delete(f"{PUSH}/{made[4]}", headers=bearer(other)), 404, "not_found")


def test_preferences_quiet_hours_and_webhooks(client):
    _, key = new_player(client)
    mine = bearer(key)
    shown = client.get("/api/v1/players/me/notifications", headers=mine).json
    assert shown["events"]["your_turn"] == ["push", "webhook"] and shown["quiet_hours"] is None
    quiet = {"from": "22:00", "to": "07:00", "tz": "Europe/Bucharest"}
    changed = client.patch(
        "/api/v1/players/me/notifications",
        headers=mine,
        json={"events": {"your_turn": ["webhook"]}, "quiet_hours": quiet},
    ).json
    assert changed["events"]["your_turn"] == ["webhook"]
    assert changed["quiet_hours"]["tz"] == "Europe/Bucharest"
    assert client.get("/api/v1/players/me/notifications", headers=mine).json == changed
    for body in ({"events": {"your_turn": ["sms"]}}, {"events": {"anything": ["push"]}},
                 {"quiet_hours": {"from": "25:00", "to": "07:00", "tz": "UTC"}},
                 {"quiet_hours": {"from": "22:00", "to": "07:00", "tz": "Mars/Base"}},
                 {"quiet_hours": {"from": "22:00"}}):  # fmt: skip
        problem(client.patch("/api/v1/players/me/notifications", headers=mine, json=body), 422,
                "validation_error")  # fmt: skip
    cleared = client.patch("/api/v1/players/me/notifications", headers=mine,
                           json={"quiet_hours": None}).json  # fmt: skip
    assert cleared["quiet_hours"] is None and cleared["events"]["your_turn"] == ["webhook"]


def test_a_webhook_hears_only_what_the_preferences_send_it(client):
    receiver = Receiver()
    url = receiver.start()
    try:
        _, key = new_player(client)
        mine = bearer(key)
        client.patch("/api/v1/players/me/notifications", headers=mine,
                     json={"events": {"your_turn": ["push"]}})  # fmt: skip
        made = client.post("/api/v1/players/me/webhooks", headers=mine,
                           json={"url": url, "events": ["your_turn", "game_started"]})  # fmt: skip
        assert made.status_code == 201, made.json
        a_game_against_a_bot(client, key)
        receiver.wait_for(lambda: any(r.event["type"] == "game_started" for r in receiver.received))
        # Both events were found in the same pass: what it queued is all there is.
        hook = made.json["webhook"]["id"]
        queued = client.get(f"/api/v1/players/me/webhooks/{hook}/deliveries", headers=mine).json
        assert [d["event"] for d in queued["deliveries"]] == ["game_started"]
    finally:
        receiver.stop()
