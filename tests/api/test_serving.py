"""``stacks-api serve`` as deployed: evented web workers, bot workers, streams that cost
no thread and end with their client, a quick TERM."""

import socket
import time

import pytest
import requests

from stacks_api.client import GameSocket
from stacks_api.testing import ServerProcess

from .helpers import COMPLETE, COMPLETING_POSITION

SSE = {"Accept": "text/event-stream"}


@pytest.fixture
def redis_server(redis_url, prefix):
    server = ServerProcess({"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": prefix})
    yield server
    server.stop()


@pytest.fixture
def memory_server():
    server = ServerProcess({"REDIS_URL": ""})
    yield server
    server.stop()


def open_stream(server: ServerProcess, game_id: str) -> socket.socket:
    """An SSE request on a raw socket, read until the stream has begun."""
    sock = socket.create_connection(("127.0.0.1", server.port))
    request = (f"GET /api/v1/games/{game_id}/events HTTP/1.1\r\nHost: x\r\n"
               "Accept: text/event-stream\r\n\r\n")  # fmt: skip
    sock.sendall(request.encode())
    received = b""
    while b"retry:" not in received:
        received += sock.recv(4096)
    return sock


def open_streams(server: ServerProcess) -> int:
    return requests.get(f"{server.url}/api/v1/health", timeout=5).json()["open_streams"]


def new_game(server: ServerProcess, **body) -> dict:
    body = {"variant": "sequence", "players": 2, **body}
    response = requests.post(f"{server.url}/api/v1/games", json=body, timeout=5)
    assert response.status_code == 201
    return response.json()


def test_a_stream_is_released_within_a_second_of_its_client_hanging_up(memory_server):
    game_id = new_game(memory_server)["game"]["id"]
    streams = [open_stream(memory_server, game_id) for _ in range(3)]
    assert open_streams(memory_server) == 3
    for sock in streams[:2]:
        sock.close()
    hung_up = time.monotonic()
    while open_streams(memory_server) != 1:
        # Bounded, not timed: well before the 15 s keep-alive that would find it dead.
        assert time.monotonic() - hung_up < 8, "a stream outlived its client"
        time.sleep(0.05)
    streams[2].close()


def test_a_game_socket_counts_among_the_open_streams(memory_server):
    game_id = new_game(memory_server)["game"]["id"]
    stream = open_stream(memory_server, game_id)
    table = GameSocket(memory_server.url, game_id, None)
    assert open_streams(memory_server) == 2
    table.close()
    closed = time.monotonic()
    while open_streams(memory_server) != 1:
        assert time.monotonic() - closed < 8, "a socket outlived its close"
        time.sleep(0.05)
    stream.close()


def test_open_streams_counts_every_web_process_of_the_server(redis_url, prefix):
    server = ServerProcess({"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": prefix}, workers=2)
    try:
        game_id = new_game(server)["game"]["id"]
        streams = [open_stream(server, game_id) for _ in range(8)]  # spread over both workers
        deadline = time.monotonic() + 30
        answers: list[int] = []
        while answers[-6:] != [8] * 6:  # six answers in a row, from whichever worker
            assert time.monotonic() < deadline, f"health said {answers[-6:]}, not 8"
            answers.append(open_streams(server))
            time.sleep(0.2)
        for sock in streams:
            sock.close()
    finally:
        server.stop()


def test_term_with_open_and_dropped_streams_exits_cleanly(redis_url, prefix):
    server = ServerProcess({"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": prefix}, workers=2)
    game_id = new_game(server)["game"]["id"]
    streams = [open_stream(server, game_id) for _ in range(6)]
    for sock in streams[:3]:
        sock.close()  # dropped without a word
    # Open streams live for minutes: stop() waits 10 s at most (then fails), so the
    # streams did not hold the server up; it exited by itself, not killed.
    server.stop()
    assert server.process.returncode == 0
    for sock in streams[3:]:
        sock.close()


def test_bot_workers_answer_and_prefer_wait_shows_the_reply(redis_server):
    created = new_game(redis_server, seats=[{}, {"bot": "greedy"}], seed=5)
    game_id = created["game"]["id"]
    base = f"{redis_server.url}/api/v1/games/{game_id}"
    token = requests.post(f"{base}/players", json={"name": "Ada"}, timeout=5).json()["token"]
    auth = {"Authorization": f"Bearer {token}", "Prefer": "wait=10"}
    mine = requests.get(base, headers=auth, timeout=15).json()
    assert mine["to_move"] == [0]
    action = mine["you"]["legal_actions"][0]
    answer = requests.post(f"{base}/actions", json=action, headers=auth, timeout=15)
    assert answer.headers["Preference-Applied"] == "wait=10"
    seats = [e.get("seat") for e in answer.json()["events"]]
    assert seats[0] == 0 and 1 in seats, "the bot's reply came from a worker process"
    assert answer.json()["game"]["to_move"] == [0]


def test_a_block_window_deadline_closes_through_the_job_scheduler(redis_server):
    game_id = new_game(redis_server, variant="stacks", players=3, position=COMPLETING_POSITION,
                       options={"response_timeout_s": 1})["game"]["id"]  # fmt: skip
    base = f"{redis_server.url}/api/v1/games/{game_id}"
    tokens = [
        requests.post(f"{base}/players", json={"name": f"P{i}"}, timeout=5).json()["token"]
        for i in range(3)
    ]
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    completing = requests.post(f"{base}/actions", json=COMPLETE, headers=auth, timeout=5)
    assert completing.status_code == 200
    opened = time.monotonic()
    while requests.get(base, timeout=5).json()["block_window"] is not None:
        assert time.monotonic() - opened < 15, "the deadline passed and nothing closed it"
        time.sleep(0.1)
    events = requests.get(f"{base}/events", timeout=5).json()["events"]
    assert "window_expired" in [e["type"] for e in events]
