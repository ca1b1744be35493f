"""A WebSocket tried as an attacker would: garbage frames, many sockets at once,
brackets nested past any decoder, the same message id twice, a reconnection
storm, a socket left on an ended game. Each test speaks from an address of its
own (the server trusts one proxy, so ``X-Forwarded-For`` names the caller)."""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from typing import Any

import pytest
import requests
from simple_websocket import Client as WebSocket
from simple_websocket import ConnectionClosed
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Request, TextMessage

from stacks_api.api.socket_session import GRACE
from stacks_api.client import Client
from stacks_api.testing import ServerProcess

FRAMES_A_MINUTE = 30
SOCKETS_A_MINUTE = 5
_addresses = (f"192.0.2.{n}" for n in itertools.count(1))  # TEST-NET-1: a header only


@pytest.fixture(scope="module")
def server():
    process = ServerProcess({
        "REDIS_URL": "", "STACKS_RATE_LIMITS": "on", "STACKS_TRUSTED_PROXIES": "1",
        "STACKS_LIMIT_ACT": f"{FRAMES_A_MINUTE}/minute",
        "STACKS_LIMIT_STREAM": f"{SOCKETS_A_MINUTE}/minute",
        "STACKS_LIMIT_CREATE": "600/minute", "STACKS_LIMIT_JOIN": "600/minute",
    }, workers=2)  # fmt: skip
    yield process
    process.stop()


def caller() -> dict[str, str]:
    return {"X-Forwarded-For": next(_addresses)}


def game_with_a_seat(server: ServerProcess, headers: dict[str, str]) -> tuple[str, str]:
    """A game against a bot, and the seat's token."""
    url = f"{server.url}/api/v1/games"
    body = {"variant": "sequence", "players": 2, "seats": [{}, {"bot": "greedy"}]}
    game = requests.post(url, json=body, headers=headers, timeout=10).json()["game"]["id"]
    joined = requests.post(f"{url}/{game}/players", json={"name": "Ada"}, headers=headers,
                           timeout=10).json()  # fmt: skip
    return game, joined["token"]


def opened(server: ServerProcess, game: str, token: str | None, headers: dict[str, str]):
    """A socket that has said hello; its first answer."""
    url = f"{server.url.replace('http', 'ws', 1)}/api/v1/games/{game}/socket"
    ws = WebSocket.connect(url, headers=headers)
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws, json.loads(ws.receive(10))


def answer_to(ws: Any) -> dict[str, Any]:
    """The next answer to a message (events and presence that come between skipped)."""
    while (message := json.loads(ws.receive(10)))["type"] not in ("result", "refused"):
        pass
    return message


def until_closed(ws: Any, frames: list[str], heard: list[dict[str, Any]] | None = None):
    """Send ``frames``, then read until the server closes or is silent for 2 s; its
    close code (None: still open). What it answered goes into ``heard``."""
    try:
        for frame in frames:
            ws.send(frame)
        while (answer := ws.receive(2)) is not None:
            if heard is not None:
                heard.append(json.loads(answer))
    except ConnectionClosed:
        return ws.close_reason
    return None


def test_garbage_frames_count_before_they_are_decoded(server):
    """Frames that are no JSON use up the allowance as any other; past it each is
    refused, and a socket that sends on regardless is closed."""
    headers = caller()
    game, token = game_with_a_seat(server, headers)
    ws, state = opened(server, game, token, headers)
    assert state["type"] == "state"
    assert until_closed(ws, ["not json"] * (FRAMES_A_MINUTE + GRACE + 5)) == 4429


def test_an_address_s_sockets_share_one_allowance(server):
    """Three sockets of one caller, each under the limit alone, over it together: the
    frames past it are refused as a 429 would be (nothing done, when to retry)."""
    headers = caller()
    game, token = game_with_a_seat(server, headers)
    sockets = [opened(server, game, token, headers)[0] for _ in range(3)]
    each = FRAMES_A_MINUTE // 3 + 2  # under the limit for any one of them
    heard: list[dict[str, Any]] = []
    codes = [until_closed(ws, [json.dumps({"type": "ping"})] * each, heard) for ws in sockets]
    assert codes == [None, None, None], "each stays within its grace"
    limited = [m for m in heard if m["type"] == "refused"]
    assert limited and all(m["problem"]["code"] == "rate_limited" for m in limited)
    assert all(m["problem"]["retry_after"] >= 1 for m in limited)
    assert len([m for m in heard if m["type"] == "pong"]) <= FRAMES_A_MINUTE
    others = caller()  # another address is untouched
    game, token = game_with_a_seat(server, others)
    ws, state = opened(server, game, token, others)
    ws.send(json.dumps({"type": "ping"}))
    while (heard_back := json.loads(ws.receive(10)))["type"] in ("events", "presence"):
        pass  # the bot's move may come first
    assert state["type"] == "state" and heard_back["type"] == "pong"
    ws.close()


def test_brackets_nested_past_the_bound_are_refused_and_the_session_lives(server):
    headers = caller()
    game, token = game_with_a_seat(server, headers)
    ws, _ = opened(server, game, token, headers)
    for frame in ("[" * 15_000, json.dumps({"type": "view", "id": "x", "a": [[[[[[1]]]]]]})):
        ws.send(frame)
        refused = answer_to(ws)
        assert refused["type"] == "refused" and refused["problem"]["code"] == "bad_request"
    ws.send(json.dumps({"type": "view", "id": "v1"}))
    answer = answer_to(ws)
    assert answer["type"] == "result" and answer["id"] == "v1"
    ws.close()
    assert "Traceback" not in server.output()


def test_a_chat_or_resign_id_sent_twice_is_applied_once(server):
    headers = caller()
    game, token = game_with_a_seat(server, headers)
    ws, _ = opened(server, game, token, headers)
    answers = []
    for message in ({"type": "chat", "id": "c1", "text": "gl hf"},) * 2 + (
        {"type": "resign", "id": "r1"},
    ) * 2:  # fmt: skip
        ws.send(json.dumps(message))
        answers.append(answer_to(ws))
    assert answers[0] == answers[1] and answers[0]["type"] == "result"
    assert answers[2] == answers[3] and answers[2]["type"] == "result", answers[3]
    ws.close()
    events = Client(server.url).events(game)
    assert [e["text"] for e in events if e["type"] == "chat"] == ["gl hf"]
    assert len([e for e in events if e["type"] == "resigned"]) == 1
    # The same id on a new socket (as after a lost connection) is answered the same.
    ws, _ = opened(server, game, token, headers)
    ws.send(json.dumps({"type": "chat", "id": "c1", "text": "gl hf"}))
    assert answer_to(ws) == answers[0]
    ws.send(json.dumps({"type": "chat", "id": "c1", "text": "something else"}))
    assert answer_to(ws)["problem"]["code"] == "idempotency_key_reused"
    ws.close()


def test_sockets_opened_are_counted_per_credential(server):
    """A person reconnecting many times spends their own allowance: another person
    behind the same address still gets in."""
    headers = caller()
    game, token = game_with_a_seat(server, headers)
    for _ in range(SOCKETS_A_MINUTE):
        ws, state = opened(server, game, token, headers)
        assert state["type"] == "state"
        ws.close()
    ws, refused = opened(server, game, token, headers)
    assert refused["type"] == "refused" and refused["problem"]["code"] == "rate_limited"
    assert until_closed(ws, []) == 4429
    other_game, other_token = game_with_a_seat(server, headers)
    ws, state = opened(server, other_game, other_token, headers)
    assert state["type"] == "state", "the same address, another credential"
    ws.close()


def test_a_socket_left_on_an_ended_game_stalls_nobody(server):
    headers = caller()
    game, token = game_with_a_seat(server, headers)
    url = f"{server.url}/api/v1/games/{game}"
    auth = {**headers, "Authorization": f"Bearer {token}"}
    assert requests.post(f"{url}/resign", headers=auth, timeout=10).status_code == 200
    sockets = [opened(server, game, token, headers)[0] for _ in range(2)]  # one a worker
    for _ in range(5):  # each worker still answers while the sockets stay open
        assert requests.get(url, headers=headers, timeout=10).status_code == 200
    for ws in sockets:
        ws.close()


def flooded(server: ServerProcess, game: str, bound_s: float, ended: list[str]) -> None:
    """Garbage frames on a socket of its own, without pause, until the server closes
    it (``ended`` says "closed") or ``bound_s`` passes ("bound")."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    ws = WSConnection(ConnectionType.CLIENT)
    sock.sendall(ws.send(Request(host="127.0.0.1", target=f"/api/v1/games/{game}/socket")))
    ws.receive_data(sock.recv(65536))
    assert any(isinstance(e, AcceptConnection) for e in ws.events())
    frames = ws.send(TextMessage(data="not json")) * 500
    deadline = time.monotonic() + bound_s
    try:
        while time.monotonic() < deadline:
            sock.sendall(frames)
        ended.append("bound")
    except OSError:
        ended.append("closed")
    finally:
        sock.close()


def test_a_socket_sending_without_pause_holds_up_no_other_client(server):
    """Under gevent a read that finds data never yields: unpaced, two flooding
    sockets held their workers, and every other request on them, for seconds."""
    headers = caller()
    game, _ = game_with_a_seat(server, headers)
    ended: list[str] = []
    floods = [threading.Thread(target=flooded, args=(server, game, 60, ended)) for _ in range(2)]
    for flood in floods:
        flood.start()
    for _ in range(20):  # fresh connections: each worker's share of them
        assert requests.get(f"{server.url}/api/v1/games/{game}", timeout=5).status_code == 200
    for flood in floods:
        flood.join()
    assert ended == ["closed", "closed"], "the server closed each flood"
