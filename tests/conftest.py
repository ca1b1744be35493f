"""Fixtures: a throwaway redis-server, apps on either store, and HTTP helpers."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator

import pytest
import redis

from stacks_api.app import create_app
from stacks_api.config import TestConfig


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A redis-server of our own on a free port, in a temporary directory."""

    def __init__(self, appendonly: bool = False) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="stacks-redis-")
        self.appendonly = appendonly
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed (.ci/run installs it)"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
             "--save", "", "--appendonly", "yes" if self.appendonly else "no",
             "--appendfsync", "always"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url)
        for _ in range(200):
            try:
                client.ping()
                return
            except redis.ConnectionError:
                time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    def stop(self, kill: bool = False) -> None:
        """Stop the server; ``kill`` is a crash (SIGKILL), with no chance to flush."""
        if self.process is not None:
            if kill:
                self.process.kill()
            else:
                self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


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
    return create_app(TestConfig, REDIS_URL=store_url, STORE_PREFIX=prefix)


@pytest.fixture
def client(app):  # type: ignore[no-untyped-def]
    return app.test_client()
