"""Fixtures: a throwaway redis-server, apps on either store, and HTTP helpers."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import redis

from stacks_api.app import create_app
from stacks_api.config import TestConfig
from stacks_api.testing import RedisServer


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """REDIS_URL when set, else a redis-server started for this test session."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    server = RedisServer()
    server.start()
    yield server.url
    server.cleanup()


@pytest.fixture
def prefix(request: pytest.FixtureRequest) -> Iterator[str]:
    """A key prefix owned by one test; its keys are deleted afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    if "redis_url" in request.fixturenames:
        client = redis.Redis.from_url(request.getfixturevalue("redis_url"))
        keys = list(client.scan_iter(match=f"{name}:*", count=1000))
        if keys:
            client.delete(*keys)


@pytest.fixture(params=["memory", "redis"])
def store_url(request: pytest.FixtureRequest) -> str | None:
    """Run a test once on the in-memory store and once on Redis."""
    if request.param == "memory":
        return None
    url: str = request.getfixturevalue("redis_url")
    return url


@pytest.fixture
def app(store_url: str | None, prefix: str):  # type: ignore[no-untyped-def]
    app = create_app(TestConfig, REDIS_URL=store_url, STORE_PREFIX=prefix)
    yield app
    app.extensions["stacks_api.games"].jobs.stop()  # the app's in-process bot workers


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()
