"""The archive when things fail: a worker that dies mid-batch, a database that goes
away while games end. Nothing acknowledged is lost, nothing is archived twice,
and no game waits for the database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Any

import pytest
from sqlalchemy import func, select

from stacks_api.archive.models import ArchivedGame, GameSeat
from stacks_api.service.archiving import CLAIM_S, Archiving
from stacks_api.testing import PostgresServer, create_database, drop_database

from .helpers import API, bearer, create, join

CLAIM_S_HERE = 2.0  # the worker processes' claim: a short one, so the test is quick


def ended_games(client: Any, count: int) -> list[str]:
    """``count`` games dealt to two people who then both agree to cancel: each ends
    (and goes to the outbox) at once."""
    ids = []
    for _ in range(count):
        game_id = create(client, variant="sequence", players=2)["game"]["id"]
        tokens = [join(client, game_id, name)["token"] for name in ("Ada", "Bo")]
        for token in tokens:
            gone = client.delete(f"{API}/{game_id}", headers=bearer(token))
            assert gone.status_code == 200
        assert gone.json["status"] == "cancelled"
        ids.append(game_id)
    return ids


def counts(archive: Any) -> tuple[int, int]:
    with archive.engine.connect() as connection:
        games = connection.scalar(select(func.count()).select_from(ArchivedGame))
        seats = connection.scalar(select(func.count()).select_from(GameSeat))
    return games, seats


def wait_until(condition: Any, what: str, bound_s: float = 60) -> None:
    deadline = time.monotonic() + bound_s
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def database(postgres_url):  # type: ignore[no-untyped-def]
    url = create_database(postgres_url)
    yield url
    drop_database(url)


class Dies(Exception):
    """The worker's process ends here."""


class DyingArchive:
    """The archive as a worker that dies sees it: before its commit, or after it
    (before it could take the games out of the outbox)."""

    def __init__(self, real: Any, after_commit: bool) -> None:
        self.real, self.after_commit = real, after_commit

    def put(self, games: Any) -> int:
        if self.after_commit:
            self.real.put(games)
        raise Dies

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_workers_that_die_mid_batch_leave_every_game_archived_once(
    redis_url, prefix, database, make_app
):
    # JOBS=workers: no archiver runs in this process; the test plays the workers.
    app = make_app(REDIS_URL=redis_url, STORE_PREFIX=prefix, DATABASE_URL=database,
                   JOBS="workers")  # fmt: skip
    games = app.extensions["stacks_api.games"]
    ids = ended_games(app.test_client(), 12)
    now = time.time()
    for after_commit in (True, False):
        dying = Archiving(games.store, DyingArchive(games.archive.games, after_commit))
        with pytest.raises(Dies):
            dying.drain(now, batch=5)
    assert counts(games.archive)[0] == 5  # the first batch was committed, never acknowledged
    assert games.store.archiving_backlog() == 12
    survivor = Archiving(games.store, games.archive.games)
    assert survivor.drain(now, batch=100) == 2  # the dead workers' claims still hold
    later = now + CLAIM_S + 1
    while survivor.drain(later, batch=100):
        pass
    assert counts(games.archive) == (12, 24)
    assert games.archive.games.archived(ids) == set(ids)
    assert games.store.archiving_backlog() == 0


def test_a_worker_process_killed_while_archiving_loses_no_game(redis_url, prefix, database,
                                                              make_app):  # fmt: skip
    app = make_app(REDIS_URL=redis_url, STORE_PREFIX=prefix, DATABASE_URL=database,
                   JOBS="workers")  # fmt: skip
    games = app.extensions["stacks_api.games"]
    ids = ended_games(app.test_client(), 150)
    env = {**os.environ, "REDIS_URL": redis_url, "STACKS_STORE_PREFIX": prefix,
           "DATABASE_URL": database, "STACKS_DATABASE_MIGRATE": "off",
           "STACKS_ARCHIVE_CLAIM_S": str(CLAIM_S_HERE)}  # fmt: skip
    worker = [sys.executable, "-m", "stacks_api.cli", "worker"]
    first = subprocess.Popen(worker, env=env, stderr=subprocess.DEVNULL)
    wait_until(lambda: counts(games.archive)[0] > 0 or first.poll() is not None,
               "the first worker archived nothing")  # fmt: skip
    first.send_signal(signal.SIGKILL)
    first.wait()
    archived_then = counts(games.archive)[0]
    # Whatever the dead worker held is claimed again once its claim runs out.
    second = subprocess.Popen(worker, env=env, stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: games.store.archiving_backlog() == 0, "games stayed in the outbox")
    finally:
        second.terminate()
        second.wait(timeout=10)
    assert archived_then <= 150
    assert counts(games.archive) == (150, 300)
    assert games.archive.games.archived(ids) == set(ids)


@pytest.fixture
def own_postgres():  # type: ignore[no-untyped-def]
    """A PostgreSQL server this test may stop and start again (with fsync: an
    immediate stop must not lose what it committed)."""
    server = PostgresServer(fast=False)
    server.start()
    yield server
    server.cleanup()


def test_games_end_normally_while_the_database_is_away_and_are_archived_when_it_returns(
    own_postgres, make_app
):
    url = create_database(own_postgres.url)
    app = make_app(DATABASE_URL=url)
    games = app.extensions["stacks_api.games"]
    client = app.test_client()
    own_postgres.stop(immediate=True)
    ids = ended_games(client, 8)  # every answer above was a 200: nobody waited
    assert games.store.archiving_backlog() == 8
    assert client.get(f"{API}/{ids[0]}").json["status"] == "cancelled"  # still in the live store
    health = client.get("/api/v1/health").json
    assert health["status"] == "degraded" and health["archive"]["backlog"] == 8
    assert health["archive"]["reachable"] is False
    unknown = client.get(f"{API}/no-such-game")
    assert unknown.status_code == 503 and unknown.json["code"] == "store_unavailable"
    own_postgres.start()
    wait_until(lambda: games.store.archiving_backlog() == 0, "the backlog was never archived")
    assert counts(games.archive) == (8, 16)
    assert games.archive.games.archived(ids) == set(ids)


def test_a_game_whose_outbox_entry_was_lost_is_found_by_the_sweep(
    redis_url, prefix, database, make_app
):
    app = make_app(REDIS_URL=redis_url, STORE_PREFIX=prefix, DATABASE_URL=database,
                   JOBS="workers")  # fmt: skip
    games = app.extensions["stacks_api.games"]
    lost, kept = ended_games(app.test_client(), 2)
    # What a Redis restored from an older snapshot could lose: the entry, not the game.
    outbox = games.store.keys.outbox(games.store.keys.shard(lost))
    games.store.client.zrem(outbox, lost)
    archiving = Archiving(games.store, games.archive.games)
    while archiving.drain(time.time()):
        pass
    assert games.archive.games.archived([lost, kept]) == {kept}
    waiting = create(app.test_client(), variant="sequence", players=2)  # not ended: not swept
    assert archiving.sweep(time.time()) == 1
    while archiving.drain(time.time()):
        pass
    assert games.archive.games.archived([lost, kept, waiting["game"]["id"]]) == {lost, kept}
    assert archiving.sweep(time.time()) == 0


def test_accounts_play_on_while_the_database_is_away_and_its_return_refuses_nobody(
    own_postgres, make_app
):
    """Two accounts at a game, the database stopped: each plays on with its key (the
    server had seen both), the health says degraded, and the first request after
    the database returns is answered (a pooled connection it dropped is replaced)."""
    app = make_app(DATABASE_URL=create_database(own_postgres.url))
    client = app.test_client()
    keys = [client.post("/api/v1/players", json={"name": n}).json["key"] for n in ("Ada", "Bo")]
    game = create(client, variant="sequence", players=2)["game"]["id"]
    for key in keys:
        assert client.post(f"{API}/{game}/players", json={}, headers=bearer(key)).status_code == 201

    def move() -> int:
        mover = client.get(f"{API}/{game}").json["to_move"][0]
        key = next(k for k in keys if client.get(f"{API}/{game}", headers=bearer(k)).json
                   .get("you", {}).get("seat") == mover)  # fmt: skip
        seen = client.get(f"{API}/{game}", headers=bearer(key)).json
        answer = client.post(f"{API}/{game}/actions", json=seen["you"]["legal_actions"][0],
                             headers=bearer(key))  # fmt: skip
        return answer.status_code

    assert move() == 200
    own_postgres.stop(immediate=True)
    assert [move() for _ in range(4)] == [200] * 4, "the accounts play on"
    assert client.get("/api/v1/health").json["status"] == "degraded"
    unknown = client.get(f"{API}/{game}", headers=bearer("stk_0_" + "0" * 40))
    assert unknown.status_code in (401, 503), "a key never seen is not taken on trust"
    own_postgres.start()
    assert move() == 200, "the first request after the return"
    assert client.get("/api/v1/health").json["status"] == "ok"
