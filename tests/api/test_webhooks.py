"""Webhooks over HTTP and from the workers: signed deliveries of an account's events,
retried until accepted, never lost when a worker dies, never sent to a private
address the operator did not allow."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from stacks_api.outbound.addresses import Allowed, Refused, check
from stacks_api.outbound.courier import Courier, Rules
from stacks_api.service.notifications import Notifications
from stacks_api.service.webhooks import Sending, WebhookDesk
from stacks_api.testing import create_database, drop_database

from ..outbound.hostile import Receiver as Hostile
from ..outbound.hostile import ok, raw, silent, trickle, wait_for
from .helpers import API, bearer, create, problem
from .receiver import Receiver
from .test_archive import archive_apps, new_player, play_out

HOOKS = "/api/v1/players/me/webhooks"


@pytest.fixture(params=["memory+sqlite", "redis+postgresql"])
def app(request, make_app, prefix, tmp_path):  # type: ignore[no-untyped-def]
    fast = {"WEBHOOK_ALLOW": "127.0.0.1", "WEBHOOK_FIRST_DELAY_S": 0.05}
    yield from archive_apps(request, make_app, prefix, tmp_path, **fast)


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


@pytest.fixture
def receiver():  # type: ignore[no-untyped-def]
    made = Receiver()
    yield made
    made.stop()


def signature_checks(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """The Standard Webhooks check, as a receiver writes it."""
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = base64.b64encode(hmac.new(secret.encode(), signed, hashlib.sha256).digest())
    sent = headers["webhook-signature"].split(",", 1)
    return sent[0] == "v1" and hmac.compare_digest(sent[1].encode(), expected)


def test_a_game_tells_its_webhook_each_event_once_signed_through_failures(client, receiver):
    receiver.statuses = [500, 500, 500]  # the first three requests fail
    url = receiver.start()
    _, key = new_player(client)
    made = client.post(HOOKS, json={"url": url, "events": ["your_turn", "game_ended"]},
                       headers=bearer(key))  # fmt: skip
    assert made.status_code == 201, made.json
    secret, hook = made.json["secret"], made.json["webhook"]
    assert hook["events"] == ["game_ended", "your_turn"] and secret not in str(hook)
    listed = client.get(HOOKS, headers=bearer(key)).json["webhooks"]
    assert listed == [hook] and secret not in str(listed)
    game_id = create(client, variant="sequence", players=2,
                     seats=[{}, {"bot": "random"}])["game"]["id"]  # fmt: skip
    assert client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key)).status_code == 201
    # As an app's backend would: told it is our turn (through three failures), we play.
    receiver.wait_for(lambda: any(r.event["type"] == "your_turn" for r in receiver.accepted()))
    play_out(client, game_id, key)
    receiver.wait_for(lambda: any(r.event["type"] == "game_ended" for r in receiver.accepted()))

    for request in receiver.received:
        assert signature_checks(secret, request.headers, request.body)
        assert request.event["data"]["game_id"] == game_id
    accepted = [r.headers["webhook-id"] for r in receiver.accepted()]
    assert len(accepted) == len(set(accepted)), "each event accepted once"
    failed = {r.headers["webhook-id"] for r in receiver.received if r.status == 500}
    assert failed <= set(accepted), "every failed delivery was sent again and accepted"
    kinds = [r.event["type"] for r in receiver.accepted()]
    assert kinds.count("game_ended") == 1 and "your_turn" in kinds
    turns = [r.event["data"]["version"] for r in receiver.accepted()
             if r.event["type"] == "your_turn"]  # fmt: skip
    assert len(turns) == len(set(turns))

    deliveries = client.get(f"{HOOKS}/{hook['id']}/deliveries", headers=bearer(key)).json
    retried = [d for d in deliveries["deliveries"] if len(d["attempts"]) > 1]
    assert retried and all(d["state"] == "delivered" for d in retried)
    assert [a["status"] for a in retried[-1]["attempts"]][-1] == 200
    assert sum(a["status"] == 500 for d in deliveries["deliveries"] for a in d["attempts"]) == 3


def _join_a_game(client, key: str) -> str:  # type: ignore[no-untyped-def]
    game_id = create(client, variant="sequence", players=2,
                     seats=[{}, {"bot": "random"}])["game"]["id"]  # fmt: skip
    assert client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key)).status_code == 201
    return str(game_id)


def test_one_accounts_stalling_receivers_delay_no_other_account_on_either_worker(client, app):
    """Mallory's five receivers (three trickle, two never answer) hold every delivery
    sent to them for the whole test; Ada's webhook, on another host, is delivered
    meanwhile, by whichever of two workers takes it."""
    games = app.extensions["stacks_api.games"]
    loopback = Allowed.parse("127.0.0.0/8")
    patient = Rules(in_flight=16, deadline_s=600, allowed=loopback)  # outlasts the test
    games.webhooks.allowed = loopback
    games.webhooks.lease_s = 900  # as the second worker's: no stalled delivery is re-leased
    games.webhooks.courier = games.notifications.courier = Courier(patient)
    courier = Courier(patient)  # the second worker's
    desk = WebhookDesk(games.table, Sending(loopback, 0.05, 900), courier)
    other = Notifications(games.account_feed, courier, [desk])
    stop = threading.Event()

    def second_worker() -> None:
        while not stop.is_set():
            other.dispatch(time.time())
            other.send()
            courier.wait_for_room(0.1)

    worker = threading.Thread(target=second_worker, daemon=True)
    hostile = [Hostile(trickle) for _ in range(3)] + [Hostile(silent) for _ in range(2)]
    victim = Hostile(ok(), host="127.0.0.2")
    try:
        _, mallory = new_player(client, "Mallory")
        for receiver in hostile:
            made = client.post(HOOKS, json={"url": receiver.start(), "events": ["your_turn"]},
                               headers=bearer(mallory))  # fmt: skip
            assert made.status_code == 201, made.json
        worker.start()
        for _ in range(3):
            _join_a_game(client, mallory)
        both = 2 * patient.per_owner  # each worker sends Mallory's share, no more
        wait_for(lambda: sum(r.open_now for r in hostile) == both)

        _, ada = new_player(client, "Ada")
        made = client.post(HOOKS, json={"url": victim.start(), "events": ["your_turn"]},
                           headers=bearer(ada))  # fmt: skip
        assert made.status_code == 201, made.json
        _join_a_game(client, ada)
        wait_for(lambda: len(victim.requests) >= 1)
        assert b'"type":"your_turn"' in victim.requests[0]
        assert sum(r.open_now for r in hostile) == both, "sent while Mallory's still stall"
    finally:
        stop.set()
        if worker.is_alive():
            worker.join(timeout=30)  # before the test's database goes away
        for receiver in [*hostile, victim]:
            receiver.stop()


def test_webhook_requests_are_checked(client, app):
    _, key = new_player(client)
    mine = bearer(key)
    problem(client.post(HOOKS, json={"url": "https://a.example/x", "events": ["your_turn"]}),
            401, "unauthorized")  # fmt: skip
    for body in ({}, {"url": "https://a.example/x"}, {"url": "ftp://a.example/x",
                 "events": ["your_turn"]}, {"url": "https://a.example/x", "events": []},
                 {"url": "https://a.example/x", "events": ["everything"]},
                 {"url": "not a url", "events": ["your_turn"]}):  # fmt: skip
        problem(client.post(HOOKS, json=body, headers=mine), 422, "validation_error")
    app.extensions["stacks_api.games"].webhooks.allowed = Allowed()
    for url in ("http://127.0.0.1:8000/x", "http://10.1.2.3/x", "http://169.254.169.254/latest",
                "http://[::1]/x", "http://user:pw@example.org/x"):  # fmt: skip
        refused = problem(client.post(HOOKS, json={"url": url, "events": ["your_turn"]},
                                      headers=mine), 422, "url_refused")  # fmt: skip
        assert refused["errors"]["url"]
    problem(client.delete(f"{HOOKS}/nope", headers=mine), 404, "not_found")
    problem(client.get(f"{HOOKS}/nope/deliveries", headers=mine), 404, "not_found")
    app.extensions["stacks_api.games"].webhooks.allowed = Allowed.parse("127.0.0.1")
    made = [client.post(HOOKS, json={"url": f"http://127.0.0.1:9/{n}", "events": ["paired"]},
                        headers=mine) for n in range(6)]  # fmt: skip
    assert [m.status_code for m in made] == [201] * 5 + [409]
    assert made[-1].json["code"] == "too_many_webhooks"
    assert (
        client.delete(f"{HOOKS}/{made[0].json['webhook']['id']}", headers=mine).status_code == 204
    )
    _, other = new_player(client, "Bo")
    problem(client.get(f"{HOOKS}/{made[1].json['webhook']['id']}/deliveries",
                       headers=bearer(other)), 404, "not_found")  # fmt: skip


def test_a_redirect_is_not_followed(client, receiver):
    receiver.statuses = [302] * 100
    url = receiver.start()
    _, key = new_player(client)
    hook = client.post(HOOKS, json={"url": url, "events": ["your_turn"]}, headers=bearer(key))
    game_id = create(client, variant="sequence", players=2,
                     seats=[{}, {"bot": "random"}])["game"]["id"]  # fmt: skip
    client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key))
    receiver.wait_for(lambda: len(receiver.received) >= 3)
    shown = client.get(f"{HOOKS}/{hook.json['webhook']['id']}/deliveries", headers=bearer(key))
    delivery = shown.json["deliveries"][-1]
    assert delivery["state"] == "pending" and {a["status"] for a in delivery["attempts"]} == {302}


def test_a_hostile_status_line_is_an_attempt_with_its_reason(client):
    """ "HTTP/1.1 ²00" passed isdigit() and then failed int(): no attempt was recorded
    and the delivery went out again every 30 s for ever. Now it is an attempt, with
    why, and waits as every failed attempt does."""
    hostile = Hostile(raw(b"HTTP/1.1 \xb200 OK\r\nRetry-After: \xb2\r\n\r\n"))
    url = hostile.start()
    try:
        _, key = new_player(client)
        made = client.post(HOOKS, json={"url": url, "events": ["your_turn"]},
                           headers=bearer(key))  # fmt: skip
        game_id = create(client, variant="sequence", players=2,
                         seats=[{}, {"bot": "random"}])["game"]["id"]  # fmt: skip
        client.post(f"{API}/{game_id}/players", json={}, headers=bearer(key))
        shown = f"{HOOKS}/{made.json['webhook']['id']}/deliveries"

        def attempted() -> list[dict[str, Any]]:
            deliveries = client.get(shown, headers=bearer(key)).json["deliveries"]
            return [a for d in deliveries for a in d["attempts"]]

        wait_for(lambda: len(attempted()) >= 2)
        assert all(a["status"] is None and "status line" in a["error"] for a in attempted())
        pending = client.get(shown, headers=bearer(key)).json["deliveries"][-1]
        assert pending["state"] == "pending" and pending["next_at"] is not None
    finally:
        hostile.stop()


PRIVATE = [
    "127.0.0.1",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "0.0.0.0",
    "100.64.0.1",
    "::1",
    "fd00:ec2::254",
    "fe80::1",
    "::ffff:127.0.0.1",
    "224.0.0.1",
    "198.18.0.1",  # benchmarking
    "100.127.255.254",  # CGNAT
    "fc00::1",  # unique-local
    "fec0::1",  # site-local (deprecated)
    "ff02::1",
    # IPv6 forms that carry an IPv4 address, refused whatever that address is
    "::7f00:1",  # IPv4-compatible 127.0.0.1
    "::5db8:d70e",  # IPv4-compatible of a public address
    "64:ff9b::7f00:1",  # NAT64
    "64:ff9b::5db8:d70e",
    "64:ff9b:1::a00:1",  # local-use NAT64
    "2002:7f00:1::1",  # 6to4
    "2002:5db8:d70e::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
]


@pytest.mark.parametrize("address", PRIVATE)
def test_private_addresses_are_refused_however_they_are_named(address):
    host = f"[{address}]" if ":" in address else address
    with pytest.raises(Refused):
        check(f"http://{host}/hook", Allowed())
    with pytest.raises(Refused):  # a public-looking name that resolves there
        check("https://hooks.example.org/x", Allowed(), lambda host, port: [address])
    check("https://hooks.example.org/x", Allowed(), lambda host, port: ["93.184.215.14"])


@pytest.mark.parametrize("host", ["127.1", "2130706433", "0x7f.0.0.1", "017700000001", "0"])
def test_loopback_written_as_odd_numbers_is_refused_by_what_it_resolves_to(host):
    with pytest.raises(Refused):
        check(f"http://{host}:8000/hook", Allowed())


def test_a_checked_url_names_the_address_a_send_connects_to():
    both = ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]
    target = check("https://hooks.example.org:8443/x?y=1", Allowed(), lambda host, port: both)
    assert (target.address, target.host, target.port, target.path) == (
        "93.184.215.14", "hooks.example.org", 8443, "/x?y=1")  # fmt: skip
    with pytest.raises(Refused):  # one private address among public ones is enough
        check("https://hooks.example.org/x", Allowed(),
              lambda host, port: ["93.184.215.14", "10.0.0.7"])  # fmt: skip


def test_the_operator_allows_hosts_and_networks():
    allowed = Allowed.parse("127.0.0.1, 10.0.0.0/8 ,hooks.lan")
    check("http://127.0.0.1:5000/x", allowed)
    check("http://10.20.30.40/x", allowed)
    check("http://hooks.lan/x", allowed, lambda host, port: ["192.168.0.9"])
    with pytest.raises(Refused):
        check("http://192.168.0.9/x", allowed)
    with pytest.raises(Refused):
        check("gopher://127.0.0.1/x", allowed)


def test_a_worker_killed_mid_delivery_loses_nothing(redis_url, postgres_url, prefix, receiver):
    """The first worker is SIGKILLed while the receiver holds its request; the next
    worker sends the same delivery again once the lease ran out."""
    from stacks_api.archive import open_archive
    from stacks_api.service.webhooks import delivery_id

    receiver.hang_s = 30.0  # longer than the test lets the first worker live
    url = receiver.start()
    database = create_database(postgres_url)
    archive = open_archive(database)
    try:
        player, _ = archive.accounts.create("Ada", "laptop")
        hook, secret = archive.webhooks.create(player["id"], url, ["game_ended"])
        event = {"type": "game_ended", "game_id": "g1", "variant": "x", "seat": 0}
        archive.webhooks.enqueue([{"id": delivery_id(hook["id"], event),
                                   "webhook_id": hook["id"], "event": "game_ended",
                                   "payload": '{"type":"game_ended"}'}])  # fmt: skip
        env = {**os.environ, "REDIS_URL": redis_url, "STACKS_STORE_PREFIX": prefix,
               "DATABASE_URL": database, "STACKS_WEBHOOK_ALLOW": "127.0.0.1",
               "STACKS_WEBHOOK_LEASE_S": "2"}  # fmt: skip
        command = [sys.executable, "-m", "stacks_api.cli", "worker"]
        first = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)  # fmt: skip
        receiver.wait_for(lambda: len(receiver.received) == 1)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        second = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)  # fmt: skip
        try:
            receiver.wait_for(lambda: len(receiver.accepted()) >= 2)
            # The second worker records the answer just after the receiver gave it.
            receiver.wait_for(lambda: (archive.webhooks.deliveries(player["id"], hook["id"])
                                       or [{}])[0].get("state") == "delivered")  # fmt: skip
        finally:
            second.terminate()
            second.wait(timeout=10)
        ids = {r.headers["webhook-id"] for r in receiver.received}
        assert ids == {delivery_id(hook["id"], event)}, "the same delivery, sent again"
        assert all(signature_checks(secret, r.headers, r.body) for r in receiver.received)
        shown = archive.webhooks.deliveries(player["id"], hook["id"])
        assert shown is not None and [a["status"] for a in shown[0]["attempts"]][-1] == 200
    finally:
        archive.engine.dispose()
        drop_database(database)


def test_webhooks_are_documented_events_only(app: Any) -> None:
    from stacks_api.service.webhooks import EVENTS

    docs = (Path(__file__).parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    account_events = set(re.findall(r"^\| `(\w+)` \| account \|", docs, re.MULTILINE))
    assert set(EVENTS) <= account_events - {"webhook_disabled", "account_closed"}
    assert {"your_turn", "game_ended", "challenge", "challenge_answered"} <= set(EVENTS)
