"""Fixtures: a throwaway redis-server, apps on either store, and HTTP helpers."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator

import pytest

from stacks_api.app import create_app
from stacks_api.runtime.config import TestConfig
from stacks_api.store.redis_connect import connect
from stacks_api.testing import (
    PostgresServer,
    RedisClusterServer,
    RedisServer,
    create_database,
    drop_database,
)

# Every app the tests build (and every server they start) keeps its SQLite archive
# in this session's own folder, never in the user's data directory.
DATA_DIR = tempfile.mkdtemp(prefix="stacks-test-data-")
os.environ["STACKS_DATA_DIR"] = DATA_DIR  # each process its own (xdist workers too)


@pytest.fixture(scope="session", autouse=True)
def _remove_data_dir() -> Iterator[None]:
    yield
    shutil.rmtree(DATA_DIR, ignore_errors=True)


def _given_or_started(
    variable: str, kind: type[RedisServer] | type[RedisClusterServer]
) -> Iterator[str]:
    """The URL in ``variable`` when set, else that of a ``kind`` started for the session."""
    if os.environ.get(variable):
        yield os.environ[variable]
        return
    server = kind()
    server.start()
    yield server.url
    server.cleanup()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """REDIS_URL when set, else a redis-server started for this test session."""
    yield from _given_or_started("REDIS_URL", RedisServer)


@pytest.fixture(scope="session")
def cluster_url() -> Iterator[str]:
    """REDIS_CLUSTER_URL when set, else a Redis Cluster (3 masters, a replica each)
    started for this test session."""
    yield from _given_or_started("REDIS_CLUSTER_URL", RedisClusterServer)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """DATABASE_URL when set (a PostgreSQL where we may create databases), else a
    PostgreSQL server started for this test session."""
    if os.environ.get("DATABASE_URL"):
        yield os.environ["DATABASE_URL"]
        return
    server = PostgresServer()
    server.start()
    yield server.url
    server.cleanup()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """A new, empty archive database owned by one test: an SQLite file, and a
    database on PostgreSQL (dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/archive.sqlite3"
        return
    url = create_database(request.getfixturevalue("postgres_url"))
    yield url
    drop_database(url)


@pytest.fixture
def prefix(request: pytest.FixtureRequest) -> Iterator[str]:
    """A key prefix owned by one test; its keys are deleted afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    for url_fixture in ("redis_url", "cluster_url"):
        if url_fixture in request.fixturenames:
            _delete_prefix(request.getfixturevalue(url_fixture), name)


def _delete_prefix(url: str, name: str) -> None:
    for node in connect(url, 2.0).masters():  # the one Redis, or each master
        keys = list(node.scan_iter(match=f"{name}:*", count=1000))
        with node.pipeline(transaction=False) as pipe:
            for key in keys:  # one by one: a cluster refuses a DEL across slots
                pipe.delete(key)
            pipe.execute()


@pytest.fixture(params=["memory", "redis", "cluster"])
def store_url(request: pytest.FixtureRequest) -> str | None:
    """Run a test on the in-memory store, on Redis and on a Redis Cluster."""
    if request.param == "memory":
        return None
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture
def make_app():  # type: ignore[no-untyped-def]
    """``create_app`` with a test's own settings. Each app's in-process bot workers are
    stopped afterwards, before any Redis server the test started goes away (request
    ``make_app`` after that server's fixture)."""
    apps = []

    def make(**settings):  # type: ignore[no-untyped-def]
        app = create_app(TestConfig, **settings)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["stacks_api.games"].jobs.stop()


@pytest.fixture
def app(store_url: str | None, prefix: str, make_app):  # type: ignore[no-untyped-def]
    return make_app(REDIS_URL=store_url, STORE_PREFIX=prefix)


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()


# Modules whose tests start whole servers (processes, failovers, restarts), generate
# clients or play hundreds of games: seconds each, the fast lane leaves them out.
SLOW_MODULES = {
    "test_account_bot.py", "test_challenge_bot.py", "test_client.py", "test_generated_client.py",
    "test_readme.py", "test_verify.py", "test_archive_faults.py", "test_failover.py",
    "test_operations.py", "test_serving.py", "test_stranding.py", "test_random_games.py",
}  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by what it needs (pyproject.toml lists the markers), so a lane can
    leave some out: ``-m "not browser and not postgres and not cluster and not slow"``."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        spec = getattr(item, "callspec", None)
        params = {str(value) for value in spec.params.values()} if spec is not None else set()
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
        if item.path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        if "postgres_url" in names or params & {"postgresql", "redis+postgresql"}:
            item.add_marker(pytest.mark.postgres)
        if "cluster_url" in names or "cluster" in params:
            item.add_marker(pytest.mark.cluster)
