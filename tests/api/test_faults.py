"""Redis dies mid-game: 503s within seconds; after a restart from its append-only
file the game goes on from exactly where the last acknowledged action left it."""

import random
import time

import pytest

from stacks_api.testing import RedisServer

from .helpers import act, human_vs_bots, problem, view


@pytest.fixture
def durable_redis():
    server = RedisServer(appendonly=True)
    server.start()
    yield server
    server.cleanup()


@pytest.fixture
def app(durable_redis, make_app):
    return make_app(REDIS_URL=durable_redis.url, STORE_TIMEOUT_S=1)


def test_the_game_survives_a_redis_crash(app, durable_redis):
    client = app.test_client()
    game_id, token = human_vs_bots(client, "stacks", 3, seed=21)
    rng = random.Random(3)
    for _ in range(8):
        action = rng.choice(view(client, game_id, token)["you"]["legal_actions"])
        response = act(client, game_id, token, action)
        assert response.status_code == 200
    acknowledged = view(client, game_id, token)  # the bots have answered: the game rests
    hand = acknowledged["you"]["hand"]

    durable_redis.stop(kill=True)
    for request in (
        lambda: client.get(f"/api/v1/games/{game_id}"),
        lambda: act(client, game_id, token, {"type": "pass"}),
        lambda: client.get("/api/v1/health"),
    ):
        start = time.monotonic()
        problem(request(), 503, "store_unavailable")
        assert time.monotonic() - start < 5

    durable_redis.start()  # same port, same directory: it replays the append-only file
    after = view(client, game_id, token)
    assert after["version"] == acknowledged["version"]
    assert after["you"]["hand"] == hand and after["piles"] == acknowledged["piles"]
    action = rng.choice(after["you"]["legal_actions"])
    assert act(client, game_id, token, action).status_code == 200
    assert view(client, game_id)["version"] > acknowledged["version"]
