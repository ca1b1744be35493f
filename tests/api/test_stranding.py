"""Our own processes die or hang: the web keeps answering, dead workers come back, and
no game is stranded, with no client request to nudge it (a GET never computes)."""

import os
import signal
import time

import pytest
import redis
import requests

from stacks_api.store.keys import Keys
from stacks_api.testing import ServerProcess, lease_holders

from .helpers import create

# Two bots that think about a second a move: a worker is nearly always mid-decision.
THINKING = [{"bot": "pimc", "options": {"seconds": 1.0, "iterations": 5000}}] * 2
# Comfortably past the bound (a lease of 5 s, a poll of 1 s, one decision), for a
# loaded machine; the bound itself is measured by bench/faults.py.
PATIENCE_S = 30


def wait_until(predicate, what, patience=PATIENCE_S, between=None):
    """Poll ``predicate`` until it returns something truthy; fail naming ``what``."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if between is not None:
            between()
        found = predicate()
        if found:
            return found
        time.sleep(0.1)
    pytest.fail(f"waited {patience} s: {what}")


def lease_holder(admin: redis.Redis, prefix: str, game_id: str) -> int | None:
    return lease_holders(admin, Keys(prefix)).get(game_id)


@pytest.fixture
def served(redis_url, prefix):
    server = ServerProcess({"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": prefix},
                           bot_workers=2)  # fmt: skip
    yield server
    server.stop()


def start_bot_game(server: ServerProcess) -> str:
    body = {"variant": "sequence", "players": 2, "seats": THINKING}
    response = requests.post(f"{server.url}/api/v1/games", json=body, timeout=5)
    assert response.status_code == 201
    return response.json()["game"]["id"]


def version(server: ServerProcess, game_id: str) -> int:
    return requests.get(f"{server.url}/api/v1/games/{game_id}", timeout=5).json()["version"]


def health_answers(server: ServerProcess) -> None:
    assert requests.get(f"{server.url}/api/v1/health", timeout=5).status_code == 200


def moves_are_whole(server: ServerProcess, game_id: str) -> None:
    """Every version once, no seat's move applied twice."""
    events = requests.get(f"{server.url}/api/v1/games/{game_id}/events", timeout=5).json()
    versions = sorted({e["version"] for e in events["events"]})
    assert versions == list(range(1, versions[-1] + 1))
    actions = [e["version"] for e in events["events"] if e["type"] in ("play", "exchange", "pass")]
    assert len(actions) == len(set(actions)), "one action a version"


def test_a_killed_bot_worker_is_restarted_and_its_game_moves_on(served, redis_url, prefix):
    admin = redis.Redis.from_url(redis_url)
    game_id = start_bot_game(served)
    holder = wait_until(lambda: lease_holder(admin, prefix, game_id), "a worker claims the game")
    workers_before = served.children()
    assert holder in workers_before
    os.kill(holder, signal.SIGKILL)
    at_kill = version(served, game_id)  # read after the kill: the dead commit nothing more
    wait_until(lambda: version(served, game_id) > at_kill, "the game moves after the kill",
               between=lambda: health_answers(served))  # fmt: skip
    assert lease_holder(admin, prefix, game_id) != holder
    restarted = wait_until(lambda: served.children() - workers_before,
                           "the supervisor starts a new worker")  # fmt: skip
    assert holder not in served.children() and len(restarted) == 1
    health_answers(served)
    moves_are_whole(served, game_id)


def test_a_hung_bot_worker_has_its_game_taken_over(served, redis_url, prefix):
    admin = redis.Redis.from_url(redis_url)
    game_id = start_bot_game(served)
    holder = wait_until(lambda: lease_holder(admin, prefix, game_id), "a worker claims the game")
    os.kill(holder, signal.SIGSTOP)
    try:
        at_stop = version(served, game_id)
        # One more move could be the hung worker's own, committed just before it hung.
        wait_until(lambda: version(served, game_id) > at_stop + 1, "another worker takes over",
                   between=lambda: health_answers(served))  # fmt: skip
        assert lease_holder(admin, prefix, game_id) not in (None, holder)
    finally:
        os.kill(holder, signal.SIGCONT)
    # The woken worker's decision was made on an old version: refused, not applied.
    resumed_at = version(served, game_id)
    wait_until(lambda: version(served, game_id) > resumed_at, "the game goes on")
    moves_are_whole(served, game_id)


def drop_queue_writes(store, monkeypatch):
    """Make every write of the game's work queue entry go missing."""
    if store.kind == "redis":  # one Redis or a cluster
        write_game = store._run_write

        def losing_the_entry(keys, args):
            written = write_game(keys, args)
            store.client.zrem(keys[2], args[5])  # the due queue, the game's id
            return written

        monkeypatch.setattr(store, "_run_write", losing_the_entry)
    else:
        monkeypatch.setattr(store.work, "set_due", lambda game_id, at: None)


def test_a_game_whose_queue_entry_was_never_written_still_moves(
    store_url, prefix, monkeypatch, make_app
):
    app = make_app(REDIS_URL=store_url, STORE_PREFIX=prefix)
    service = app.extensions["stacks_api.games"]
    client = app.test_client()
    with monkeypatch.context() as lost:
        drop_queue_writes(service.store, lost)
        game = create(client, variant="stacks", players=3, seats=[{"bot": "greedy"}] * 3)
    game_id, created = game["game"]["id"], game["game"]["version"]
    wait_until(lambda: service.store.load(game_id).version > created,
               "the runners' repair finds the game")  # fmt: skip
