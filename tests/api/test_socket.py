"""Play over one socket: the same rules over HTTP and over a WebSocket (the tests
marked with ``transport`` run over each), and what only a socket has: a hello,
every change pushed in order, an id answered twice applied once, a spectator who
sees no hand, a revoked credential and a flood closing it, a killed worker that
loses nothing acknowledged."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import requests
from simple_websocket import Client as WebSocket
from simple_websocket import ConnectionClosed

from stacks_api.client import ApiError, Client, GameSocket
from stacks_api.testing import ServerProcess

API = "/api/v1"


@pytest.fixture(scope="module")
def server():
    process = ServerProcess({"REDIS_URL": "", "STACKS_RATE_LIMITS": "on",
                             "STACKS_LIMIT_ACT": "100/second", "STACKS_LIMIT_JOIN": "600/minute",
                             "STACKS_LIMIT_CREATE": "600/minute",
                             "STACKS_LIMIT_STREAM": "600/minute"})  # fmt: skip
    yield process
    process.stop()


class Seat:
    """One seat, acting over HTTP or over its own socket: the same calls either way."""

    def __init__(self, api: Client, game_id: str, token: str, transport: str) -> None:
        self.api, self.game_id, self.token = api, game_id, token
        self.socket = api.socket(game_id, token) if transport == "socket" else None

    def view(self) -> dict[str, Any]:
        return self.api.view(self.game_id, self.token)

    def act(self, action: dict[str, Any], version: int) -> dict[str, Any]:
        """The action's answer: its new version and its events (or ApiError)."""
        if self.socket is not None:
            return self.socket.act(action, version)
        answer = self.api._call("POST", f"/games/{self.game_id}/actions", token=self.token,
                                headers={"If-Match": f'"{version}"'}, json=action)  # fmt: skip
        return {"version": answer["game"]["version"], "events": answer["events"]}

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()


def table(
    server: ServerProcess, variant: str, players: int, transport: str
) -> tuple[str, list[Seat]]:
    api = Client(server.url)
    game = api.create(variant, players)
    seats = {}
    for n in range(players):
        joined = api.join(game["id"], f"P{n}")
        seats[joined.seat] = Seat(api, game["id"], joined.token, transport)
    return game["id"], [seats[n] for n in range(players)]


def refused(call: Any) -> dict[str, Any]:
    with pytest.raises(ApiError) as caught:
        call()
    return caught.value.problem


@pytest.mark.parametrize("transport", ["http", "socket"])
@pytest.mark.parametrize(("variant", "players"), [("sequence", 2), ("stacks", 3)])
def test_a_whole_game_of_people_moves_once_a_version(server, transport, variant, players):
    game_id, seats = table(server, variant, players, transport)
    try:
        for _ in range(3000):
            view = seats[0].view()
            if view["status"] != "active":
                break
            mover = view["to_move"][0]
            theirs = seats[mover].view()
            done = seats[mover].act(theirs["you"]["legal_actions"][-1], theirs["version"])
            assert done["version"] > theirs["version"] and done["events"]
        assert seats[0].view()["status"] == "finished"
    finally:
        for seat in seats:
            seat.close()
    events = Client(server.url).events(game_id)
    versions = [e["version"] for e in events]
    assert sorted(set(versions)) == list(range(1, versions[-1] + 1)) and versions == sorted(
        versions
    )


@pytest.mark.parametrize("transport", ["http", "socket"])
def test_every_refusal_is_the_routes_own(server, transport):
    _, seats = table(server, "sequence", 2, transport)
    try:
        view = seats[0].view()
        mover, waiting = view["to_move"][0], 1 - view["to_move"][0]
        legal = seats[mover].view()["you"]["legal_actions"]
        out_of_turn = refused(lambda: seats[waiting].act(legal[0], view["version"]))
        assert (out_of_turn["status"], out_of_turn["code"]) == (409, "not_your_turn")
        stale = refused(lambda: seats[mover].act(legal[0], view["version"] - 1))
        assert (stale["status"], stale["code"]) == (412, "stale_version")
        malformed = refused(lambda: seats[mover].act({"type": "teleport"}, view["version"]))
        assert (malformed["status"], malformed["code"]) == (422, "validation_error")
        illegal = {"type": "play", "card": legal[0]["card"], "cell": [0, 0]}  # a corner
        wrong = refused(lambda: seats[mover].act(illegal, view["version"]))
        assert (wrong["status"], wrong["code"]) == (409, "illegal_action")
        assert {"type", "title", "detail"} <= set(wrong)
        assert seats[0].view()["version"] == view["version"], "nothing was applied"
    finally:
        for seat in seats:
            seat.close()


def raw_socket(server: ServerProcess, game_id: str) -> WebSocket:
    return WebSocket.connect(f"{server.url.replace('http', 'ws', 1)}{API}/games/{game_id}/socket")


def messages(ws: WebSocket, until: Any, bound: int = 200) -> list[dict[str, Any]]:
    """Messages until ``until(message)`` holds (at most ``bound``, 10 s each)."""
    got = []
    for _ in range(bound):
        message = json.loads(ws.receive(10))
        got.append(message)
        if until(message):
            return got
    raise AssertionError(f"not seen in {bound} messages: {got[-3:]}")


def test_an_id_answered_twice_is_applied_once_and_every_change_comes_in_order(server):
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "greedy"}])
    me = api.join(game["id"], "Ada")
    ws = raw_socket(server, game["id"])
    ws.send(json.dumps({"type": "hello", "token": me.token}))
    state = json.loads(ws.receive(10))
    assert state["type"] == "state" and state["view"]["you"]["seat"] == me.seat
    view = state["view"]
    if view["to_move"] != [me.seat]:  # the bot deals first: wait for its move
        messages(ws, lambda m: m["type"] == "events" and m["events"][-1].get("seat") != me.seat)
        view = api.view(game["id"], me.token)
    action = {"type": "action", "id": "move-1", "version": view["version"],
              "action": view["you"]["legal_actions"][0]}  # fmt: skip
    ws.send(json.dumps(action))
    heard = messages(ws, lambda m: m.get("id") == "move-1")
    first = heard[-1]
    ws.send(json.dumps(action))  # the same request again, as after a lost answer
    heard += messages(ws, lambda m: m.get("id") == "move-1")
    assert first["type"] == heard[-1]["type"] == "result" and first == heard[-1]
    ws.send(json.dumps({"type": "ping"}))
    heard += messages(ws, lambda m: m["type"] == "pong")
    ws.close()
    assert any(m["type"] == "events" and m["version"] == first["version"] for m in heard)
    versions = [m["version"] for m in heard if m["type"] == "events"]
    assert versions == sorted(set(versions)), "in order, once each"
    plays = [e for e in api.events(game["id"]) if e["type"] == "play" and e["seat"] == me.seat]
    assert len(plays) == 1, "answered twice, applied once"


def test_a_spectator_hears_the_game_and_sees_no_hand(server):
    api = Client(server.url)
    game = api.create("stacks", 2, seats=[{}, {"bot": "greedy"}])
    me = api.join(game["id"], "Ada")
    watcher = api.socket(game["id"])
    assert "you" not in watcher.view and '"hand"' not in json.dumps(watcher.view["players"])
    mine = api.view(game["id"], me.token)
    while mine["you"]["seat"] not in mine["to_move"]:
        time.sleep(0.05)
        mine = api.view(game["id"], me.token)
    api.act(game["id"], me.token, mine["you"]["legal_actions"][-1])
    heard: list[dict[str, Any]] = []
    while not any(e["type"] == "draw" for m in heard for e in m.get("events", [])):
        message = watcher.next_message(timeout=10)
        assert message is not None, "the spectator hears the move"
        heard.append(message)
    drawn = [e for m in heard for e in m.get("events", []) if e["type"] == "draw"]
    assert drawn and all("card" not in e for e in drawn), "no drawn card is told"
    assert '"hand"' not in json.dumps(heard)
    watcher.close()


def test_a_bad_hello_a_flood_and_a_revoked_token_close_the_socket(server):
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "greedy"}])
    ws = raw_socket(server, game["id"])
    ws.send(json.dumps({"type": "action"}))  # no hello first
    with pytest.raises(ConnectionClosed):
        ws.receive(10)
    assert ws.close_reason == 4400
    flood = raw_socket(server, game["id"])
    flood.send(json.dumps({"type": "hello", "token": None}))
    assert json.loads(flood.receive(10))["type"] == "state"
    # past the action route's 100 a second (a send racing the client's own reader as it
    # closes the socket on the close frame fails with an OSError rather)
    with pytest.raises((ConnectionClosed, OSError)):
        for _ in range(200):
            flood.send(json.dumps({"type": "ping"}))
        for _ in range(400):
            flood.receive(10)
    assert flood.close_reason == 4429

    key = requests.post(f"{server.url}{API}/players", json={"name": "Ada"}, timeout=5).json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    token = requests.post(f"{server.url}{API}/players/me/tokens", headers=auth, timeout=5,
                          json={"label": "bot", "scopes": ["play"]}).json()["token"]  # fmt: skip
    requests.post(f"{server.url}{API}/games/{game['id']}/players", json={}, timeout=5,
                  headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    for _ in range(10):  # the flood spent this address's allowance: wait it out
        playing = raw_socket(server, game["id"])
        playing.send(json.dumps({"type": "hello", "token": token}))
        first = json.loads(playing.receive(10))
        if first["type"] == "state" or first["problem"]["code"] != "rate_limited":
            break
        time.sleep(first["problem"]["retry_after"])
    assert first["type"] == "state"
    grant = requests.get(f"{server.url}{API}/players/me/apps", headers=auth, timeout=5).json()
    requests.delete(f"{server.url}{API}/players/me/apps/{grant['apps'][0]['id']}", headers=auth,
                    timeout=5)  # fmt: skip
    with pytest.raises(ConnectionClosed):
        for _ in range(100):
            playing.receive(10)
    assert playing.close_reason == 4401
    bad = raw_socket(server, game["id"])
    bad.send(json.dumps({"type": "hello", "token": token}))  # revoked: refused at hello
    assert json.loads(bad.receive(10))["problem"]["code"] == "unauthorized"


def gunicorn_workers(server: ServerProcess) -> set[int]:
    """The web workers: the gunicorn master's children."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if parent in server.children():
            found.add(int(stat.parent.name))
    return found


@pytest.mark.slow
def test_a_killed_worker_loses_no_move_the_socket_acknowledged(redis_url, prefix):
    served = ServerProcess({"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": f"{prefix}-kill"},
                           workers=1)  # fmt: skip
    try:
        api = Client(served.url)
        game = api.create("sequence", 2)
        seats = [api.join(game["id"], name) for name in ("Ada", "Bo")]
        by_seat = {s.seat: GameSocket(served.url, game["id"], s.token) for s in seats}
        acknowledged = []
        for n in range(12):
            if n == 6:  # the worker holding both sockets dies
                killed = gunicorn_workers(served)
                assert killed, "the web worker was found"
                for pid in killed:
                    os.kill(pid, signal.SIGKILL)
            view = api.view(game["id"])
            socket = by_seat[view["to_move"][0]]
            mine = api.view(
                game["id"], next(s.token for s in seats if s.seat == view["to_move"][0])
            )
            for _ in range(100):  # the new worker takes a moment to start
                try:
                    acknowledged.append(
                        socket.act(mine["you"]["legal_actions"][0], mine["version"])
                    )
                    break
                except (ConnectionError, OSError, TimeoutError):
                    time.sleep(0.2)
                    socket._open()
        final = api.events(game["id"])
        moves = Counter(e["version"] for e in final if e["type"] in ("play", "exchange", "pass"))
        assert all(moves[a["version"]] == 1 for a in acknowledged), "each acknowledged move kept"
        assert len(acknowledged) == 12 and max(moves.values()) == 1
        for socket in by_seat.values():
            socket.close()
    finally:
        served.stop()


def test_the_socket_example_plays_a_whole_game(server):
    """examples/socket_bot.py, as the docs tell a reader to run it."""
    example = Path(__file__).resolve().parents[2] / "examples" / "socket_bot.py"
    done = subprocess.run([sys.executable, str(example), server.url], capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("result: {")


def heard_versions(
    socket: GameSocket, answers: list[dict[str, Any]]
) -> tuple[list[int], list[int]]:
    """Every version a socket was told of (its own moves' answers and the events
    messages), and the events messages' versions in the order they came."""
    pushed: list[int] = []
    while (message := socket.next_message(timeout=0.5)) is not None:
        pushed += [e["version"] for e in message.get("events", [])]
    answered = [e["version"] for a in answers for e in a["events"]]
    return sorted(set(pushed + answered)), pushed


@pytest.mark.slow
def test_sockets_on_two_workers_over_a_redis_cluster_hear_every_change(cluster_url, prefix):
    """Each seat's socket on whichever worker: every change reaches both, in order."""
    served = ServerProcess({"REDIS_URL": cluster_url, "STACKS_STORE_PREFIX": prefix},
                           workers=2)  # fmt: skip
    try:
        api = Client(served.url)
        game = api.create("sequence", 2)
        seats = [api.join(game["id"], name) for name in ("Ada", "Bo")]
        sockets = {s.seat: GameSocket(served.url, game["id"], s.token) for s in seats}
        opened = min(s.version for s in sockets.values())
        answers: dict[int, list[dict[str, Any]]] = {seat: [] for seat in sockets}
        for _ in range(16):
            mover = api.view(game["id"])["to_move"][0]
            view = sockets[mover].look()
            answers[mover].append(sockets[mover].act(view["you"]["legal_actions"][0],
                                                     view["version"]))  # fmt: skip
        last = api.view(game["id"])["version"]
        for seat, socket in sockets.items():
            every, pushed = heard_versions(socket, answers[seat])
            assert every == list(range(opened + 1, last + 1)), "no change missed"
            assert pushed == sorted(pushed), "and each in order"
            socket.close()
    finally:
        served.stop()
