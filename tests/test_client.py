"""stacks_api.client against a live ``stacks-api serve``, on both stores."""

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from stacks_api.client import ApiError, Client
from stacks_api.competition.bot_matches import run
from stacks_api.testing import ServerProcess


@pytest.fixture(scope="module", params=["memory", "redis"])
def server(request):
    env = {"REDIS_URL": "", "STACKS_SSE_MAX_S": "1"}  # streams end every second: resumes
    if request.param == "redis":
        env |= {"REDIS_URL": request.getfixturevalue("redis_url"), "STACKS_STORE_PREFIX": "client"}
    process = ServerProcess(env)
    yield process
    process.stop()


def test_a_game_against_a_bot_from_create_to_the_end(server):
    api = Client(server.url)
    assert api.health()["status"] == "ok"
    game = api.create("stacks", 2, seats=[{}, {"bot": "greedy"}], seed=4)
    me = api.join(game["id"], "Ada")
    assert me.seat == 0 and me.token
    for _ in range(400):
        view = api.view(game["id"], me.token, wait=10)
        if view["status"] != "active":
            break
        result = api.act(game["id"], me.token, view["you"]["legal_actions"][-1], wait=10)
        assert result["events"][0]["seat"] == 0
    assert view["status"] == "finished"
    assert api.events(game["id"])[-1]["type"] == "game_over"


def test_refusals_are_api_errors_with_the_problem(server):
    api = Client(server.url)
    with pytest.raises(ApiError) as refused:
        api.view("no-such-game")
    assert refused.value.status == 404 and refused.value.code == "not_found"


def test_follow_resumes_after_each_stream_ends_with_nothing_lost_or_doubled(server):
    api = Client(server.url)
    game = api.create("sequence", 2, seed=2)
    tokens = [api.join(game["id"], name).token for name in "AB"]
    streams, seen = [], []
    opened = api._stream

    def counting(game_id, after):
        streams.append(after)
        return opened(game_id, after)

    api._stream = counting
    listener = threading.Thread(target=lambda: seen.extend(api.follow(game["id"])))
    listener.start()
    for _ in range(6):  # slower than the streams' one-second life
        state = api.view(game["id"])
        mover = state["to_move"][0]
        legal = api.view(game["id"], tokens[mover])["you"]["legal_actions"]
        api.act(game["id"], tokens[mover], legal[0])
        time.sleep(0.4)
    for token in tokens:  # after the deal, every person agrees
        api.cancel(game["id"], token)
    listener.join(timeout=10)
    assert len(streams) >= 2 and streams == sorted(streams), "it reconnected from where it was"
    assert seen == api.events(game["id"]) and seen[-1]["type"] == "cancelled"


def test_a_retried_action_acts_once(server, monkeypatch):
    api = Client(server.url)
    game = api.create("sequence", 2, seats=[{}, {"bot": "greedy"}], seed=6)
    me = api.join(game["id"], "Ada")
    view = api.view(game["id"], me.token, wait=10)
    real = api.session.request
    lost = []

    def lose_the_first_answer(method, url, **kwargs):
        response = real(method, url, **kwargs)
        if method == "POST" and not lost:
            lost.append(kwargs["headers"]["Idempotency-Key"])
            raise requests.ConnectionError("the answer was lost")
        return response

    monkeypatch.setattr(api.session, "request", lose_the_first_answer)
    result = api.act(game["id"], me.token, view["you"]["legal_actions"][0])
    assert lost and result["game"]["version"] == view["version"] + 1
    mine = [e for e in api.events(game["id"], view["version"]) if e.get("seat") == 0]
    assert len([e for e in mine if e["type"] in ("play", "exchange")]) == 1


@pytest.fixture(scope="module")
def limited_server(redis_url):
    """A server with the default rate limits on, as deployed."""
    env = {"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": "limited", "STACKS_RATE_LIMITS": "on"}
    process = ServerProcess(env)
    yield process
    process.stop()


@pytest.mark.parametrize(
    "example", sorted((Path(__file__).parent.parent / "examples").glob("*.py"))
)
def test_the_examples_play_their_games_to_the_end_under_the_default_limits(limited_server, example):
    done = subprocess.run([sys.executable, str(example), limited_server.url], capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("result: {")


def test_the_client_rides_out_a_burst_of_429s(redis_url):
    env = {"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": "burst", "STACKS_RATE_LIMITS": "on",
           "STACKS_LIMIT_ACT": "3/second"}  # fmt: skip
    server = ServerProcess(env)
    try:
        api = Client(server.url)
        refused = []
        api.session.hooks["response"].append(
            lambda r, *a, **k: (
                refused.append(r.headers["Retry-After"]) if r.status_code == 429 else None
            )
        )
        game = api.create("stacks", 2, seats=[{}, {"bot": "greedy"}], seed=8)
        me = api.join(game["id"], "Ada")
        view = api.view(game["id"], me.token, wait=10)
        for _ in range(15):  # five times the actions a second the limit allows
            if view["status"] != "active":
                break
            view = api.act(game["id"], me.token, view["you"]["legal_actions"][0], wait=10)["game"]
        assert refused, "the burst met the limit"
        assert all(int(after) >= 1 for after in refused), "Retry-After is never 0"
    finally:
        server.stop()


def test_a_tournament_over_http_is_played_by_the_servers_bots(server):
    report = run("stacks", "greedy", "random", 4, url=server.url)
    assert "played by the server" in report
    wins = [int(line.split()[2]) for line in report.splitlines()[1:3]]
    draws = int(report.splitlines()[3].split()[1])
    assert sum(wins) + draws == 4


def test_actions_carry_the_version_last_seen_and_joins_carry_entropy(server):
    api, other = Client(server.url), Client(server.url)
    game = api.create("sequence", 2)
    seats = [api.join(game["id"], name) for name in ("Ada", "Bo")]
    assert all(len(s.entropy) == 32 and s.commitment == game["fairness"]["commitment"]
               for s in seats)  # fmt: skip
    seen = api.view(game["id"])
    mover = seats[seen["to_move"][0]]
    legal = other.view(game["id"], mover.token)["you"]["legal_actions"]
    other.act(game["id"], mover.token, legal[0])  # the game moves on behind api's back
    nxt = seats[api.view(game["id"], None)["to_move"][0]]
    api._seen[game["id"]] = seen["version"]  # api still believes what it saw first
    mine = other.view(game["id"], nxt.token)["you"]["legal_actions"][0]
    with pytest.raises(ApiError) as refused:
        api.act(game["id"], nxt.token, mine)
    assert refused.value.code == "stale_version"
    api.view(game["id"])
    assert api.act(game["id"], nxt.token, mine)["game"]["version"] == seen["version"] + 2
    ended = api.cancel(game["id"], seats[0].token) and api.cancel(game["id"], seats[1].token)
    fair = ended["fairness"]
    assert sorted(fair["entropy"]) == sorted(s.entropy for s in seats)
