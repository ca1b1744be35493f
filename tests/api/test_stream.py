"""The event stream across processes: every event once, in order; resume loses nothing."""

import random
import threading

import pytest
import requests

from stacks_api.testing import ServerProcess, parse_sse

SSE = {"Accept": "text/event-stream"}


@pytest.fixture(params=["redis", "cluster"])
def servers(request, prefix):
    """Two servers on one store: a Redis, or a Redis Cluster."""
    url = request.getfixturevalue(f"{request.param}_url")
    env = {"REDIS_URL": url, "STACKS_STORE_PREFIX": prefix, "STACKS_SSE_KEEPALIVE_S": "1"}
    started: list[ServerProcess] = []
    try:
        for _ in range(2):  # one by one: a second that fails to start stops the first
            started.append(ServerProcess(env))
        yield [s.url for s in started]
    finally:
        for server in started:
            server.stop()


def read_sse(response, stop_after_id=None):
    return parse_sse(response.iter_lines(decode_unicode=True), stop_after_id)


def new_game(base):
    game = requests.post(f"{base}/api/v1/games", json={"variant": "sequence", "players": 2}).json()
    game_id = game["game"]["id"]
    tokens = [
        requests.post(f"{base}/api/v1/games/{game_id}/players", json={"name": n}).json()["token"]
        for n in ("A", "B")
    ]
    return game_id, tokens


def play(base, game_id, tokens, rng, actions):
    for _ in range(actions):
        state = requests.get(f"{base}/api/v1/games/{game_id}").json()
        if state["status"] != "active":
            return
        token = tokens[state["to_move"][0]]
        auth = {"Authorization": f"Bearer {token}"}
        mine = requests.get(f"{base}/api/v1/games/{game_id}", headers=auth).json()
        action = rng.choice(mine["you"]["legal_actions"])
        response = requests.post(
            f"{base}/api/v1/games/{game_id}/actions", json=action, headers=auth
        )
        assert response.status_code == 200


def all_events(base, game_id):
    return requests.get(f"{base}/api/v1/games/{game_id}/events").json()["events"]


def test_a_stream_on_one_server_gets_every_event_made_through_the_other(servers):
    writer, reader = servers
    game_id, tokens = new_game(writer)
    received = []
    stream = requests.get(f"{reader}/api/v1/games/{game_id}/events", headers=SSE, stream=True)
    assert stream.headers["Content-Type"].startswith("text/event-stream")

    def listen():
        for _, event in read_sse(stream):
            if event is not None:
                received.append(event)

    listener = threading.Thread(target=listen)
    listener.start()
    play(writer, game_id, tokens, random.Random(1), 400)  # to the end of the game
    listener.join(timeout=30)
    assert not listener.is_alive(), "the stream should end with the game"
    assert received == all_events(writer, game_id)
    assert received[-1]["type"] == "game_over"


def test_resume_from_last_event_id_loses_and_repeats_nothing(servers):
    writer, reader = servers
    game_id, tokens = new_game(writer)
    rng = random.Random(2)
    play(writer, game_id, tokens, rng, 10)
    first = requests.get(f"{reader}/api/v1/games/{game_id}/events", headers=SSE, stream=True)
    got, last_id = [], None
    for seen_id, event in read_sse(first, stop_after_id=8):
        if event is not None:
            got.append(event)
            last_id = seen_id
    first.close()  # the phone lost its connection
    play(writer, game_id, tokens, rng, 10)
    resumed = requests.get(
        f"{reader}/api/v1/games/{game_id}/events",
        headers={**SSE, "Last-Event-ID": str(last_id)}, stream=True,
    )  # fmt: skip
    target = all_events(writer, game_id)[-1]["version"]
    got += [event for _, event in read_sse(resumed, stop_after_id=target) if event is not None]
    resumed.close()
    assert got == all_events(writer, game_id)


def test_an_idle_stream_sends_keep_alive_comments(servers):
    game_id, _ = new_game(servers[0])
    stream = requests.get(f"{servers[1]}/api/v1/games/{game_id}/events", headers=SSE, stream=True)
    kinds = []
    for _, event in read_sse(stream):
        kinds.append("comment" if event is None else event["type"])
        if "comment" in kinds:
            break
    stream.close()
    assert kinds[:4] == ["created", "joined", "joined", "started"] and kinds[-1] == "comment"
