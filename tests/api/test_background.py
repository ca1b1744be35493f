"""Bots and deadlines move in the background (docs/api.md): never inside a request."""

import random
import threading
import time

import pytest

from stacks_api import bots
from stacks_api.app import create_app
from stacks_api.engine import load_game
from stacks_api.runtime.config import TestConfig
from stacks_api.testing import parse_sse

from ..engine.helpers import cards_in_play
from .helpers import API, act, bearer, create, join, open_block_window, view

SSE = {"Accept": "text/event-stream"}


@pytest.fixture
def recorded_bot_calls(monkeypatch):
    """Every bot decision, with the thread that made it."""
    calls = []
    choose = bots.choose

    def recording(*args, **kwargs):
        calls.append(threading.current_thread())
        return choose(*args, **kwargs)

    monkeypatch.setattr(bots, "choose", recording)
    return calls


def stream_events(client, game_id, after=0):
    """The game's SSE stream through the test client, event by event."""
    response = client.get(f"{API}/{game_id}/events?after={after}", headers=SSE, buffered=False)
    lines = (line for chunk in response.response for line in chunk.decode().split("\n"))
    return (event for _, event in parse_sse(lines) if event is not None)


def test_a_get_of_an_all_bot_game_answers_at_once_and_computes_nothing(client, recorded_bot_calls):
    seats = [{"bot": "mcts", "options": {"seconds": 1.0}}] * 2
    game_id = create(client, variant="sequence", players=2, seats=seats)["game"]["id"]
    until = time.monotonic() + 5
    while len(recorded_bot_calls) < 2 and time.monotonic() < until:
        response = client.get(f"{API}/{game_id}")  # answered while the bots think elsewhere
        assert response.status_code == 200
        time.sleep(0.05)
    assert len(recorded_bot_calls) >= 2, "the background workers play the bots"
    assert threading.current_thread() not in recorded_bot_calls, "a request computed a bot move"


def test_bot_moves_arrive_over_a_stream_with_no_client_request(client):
    seats = [{}, {"bot": "greedy"}]
    game_id = create(client, variant="sequence", players=2, seats=seats, seed=4)["game"]["id"]
    token = join(client, game_id)["token"]
    mine = view(client, game_id, token)
    if mine["to_move"] != [0]:  # the bot deals first: its move comes by itself
        first_bot_move = mine["version"]
    else:
        response = act(client, game_id, token, mine["you"]["legal_actions"][0])
        assert response.status_code == 200
        assert {e.get("seat") for e in response.json["events"]} == {0}, "only the own action"
        first_bot_move = response.json["game"]["version"]
    for event in stream_events(client, game_id, after=first_bot_move - 1):
        if event.get("seat") == 1:
            assert event["type"] in ("play", "exchange", "pass")
            break


def test_a_block_window_closes_on_time_with_no_request(client):
    game_id, _, response = open_block_window(client, timeout_s=1)
    version, deadline = response.json["game"]["version"], response.json["game"]["deadline"]
    events = stream_events(client, game_id, after=version)
    expired = next(e for e in events if e["type"] == "window_expired")
    # It closed with no request, and never before its deadline (the server's clock is
    # this machine's). How soon after is load, not correctness: bench/clocks.py.
    assert expired["version"] > version and time.time() >= deadline - 0.01


def test_two_workers_racing_on_one_game_never_apply_a_move_twice(redis_url, prefix):
    apps = [
        create_app(TestConfig, REDIS_URL=redis_url, STORE_PREFIX=prefix, LOCAL_BOT_THREADS=0)
        for _ in range(2)
    ]
    services = [a.extensions["stacks_api.games"] for a in apps]
    client = apps[0].test_client()
    game_id = create(client, variant="stacks", players=3, seats=[{"bot": "greedy"}] * 3)["game"][
        "id"
    ]
    racers = [
        threading.Thread(target=services[n % 2].turns.advance, args=(game_id,)) for n in range(4)
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    record = services[0].store.load(game_id)
    events = services[0].store.events_after(game_id, 0)
    assert sorted({e["version"] for e in events}) == list(range(1, record.version + 1))
    game = load_game(record.game)
    assert cards_in_play(game) == cards_in_play(load_game(record.game))
    plays = [e for e in events if e["type"] in ("play", "discard")]
    assert len(plays) == len({(e["version"], e.get("seat")) for e in plays})


def test_the_memory_store_serves_another_game_while_a_bot_thinks(client, monkeypatch):
    thinking, done, release = threading.Event(), threading.Event(), threading.Event()
    choose = bots.choose

    def held(*args, **kwargs):  # a bot that thinks until the test lets it go
        thinking.set()
        release.wait(60)
        try:
            return choose(*args, **kwargs)
        finally:
            done.set()

    monkeypatch.setattr(bots, "choose", held)
    create(client, variant="sequence", players=2, seats=[{"bot": "random"}] * 2)
    assert thinking.wait(30), "the bot game's first decision began"
    try:
        other = create(client, variant="sequence", players=2, seed=1)["game"]
        tokens = [join(client, other["id"], name)["token"] for name in "AB"]
        mover = view(client, other["id"])["to_move"][0]
        legal = view(client, other["id"], tokens[mover])["you"]["legal_actions"]
        assert act(client, other["id"], tokens[mover], legal[0]).status_code == 200
        assert not done.is_set(), "the other game was served while the bot still thought"
    finally:
        release.set()


def test_prefer_wait_returns_once_a_human_must_act(client):
    game = create(client, variant="stacks", players=3, seed=9,
                  seats=[{}, {"bot": "greedy"}, {"bot": "greedy"}])["game"]  # fmt: skip
    token = join(client, game["id"])["token"]
    rng = random.Random(9)
    for _ in range(5):
        mine = client.get(f"{API}/{game['id']}", headers={**bearer(token), "Prefer": "wait=10"})
        assert mine.headers["Preference-Applied"] == "wait=10"
        if mine.json["status"] != "active":
            break
        assert 0 in mine.json["to_move"], "it waited until the human must act"
        action = rng.choice(mine.json["you"]["legal_actions"])
        response = act(client, game["id"], token, action, Prefer="wait=10")
        body = response.json
        assert body["game"]["to_move"] == [0] or body["game"]["status"] == "finished"
        versions = [e["version"] for e in body["events"]]
        assert versions == sorted(versions) and versions[-1] == body["game"]["version"]


def test_prefer_wait_gives_up_after_n_seconds(client):
    seats = [{"bot": "mcts", "options": {"seconds": 2.0, "iterations": 5_000}}] * 2
    game_id = create(client, variant="sequence", players=2, seats=seats)["game"]["id"]
    start = time.monotonic()
    response = client.get(f"{API}/{game_id}", headers={"Prefer": "wait=1"})
    assert response.status_code == 200 and response.headers["Preference-Applied"] == "wait=1"
    assert time.monotonic() - start >= 0.9  # it waited (a busy machine only waits longer)
    assert response.json["status"] == "active"
