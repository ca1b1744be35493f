"""Throwaway servers for tests and benchmarks: a redis-server and ``stacks-api serve``.

Both run on free loopback ports in temporary directories and never touch a
Redis or a port that someone else owns.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import redis

from .store.keys import Keys


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
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
             "--save", "", "--appendonly", "yes" if self.appendonly else "no",
             "--appendfsync", "always"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url)
        for _ in range(250):
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


class ServerProcess:
    """``stacks-api serve`` on a free port: gevent web workers and, on Redis, bot workers."""

    def __init__(
        self, env: dict[str, str], workers: int = 1, bot_workers: int = 1, port: int | None = None
    ) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "stacks_api.cli", "serve", "--port", str(self.port),
             "--workers", str(workers), "--bot-workers", str(bot_workers), "--no-access-log"],
            # Tests and benchmarks send far more than one client would: no rate
            # limits unless ``env`` asks for them.
            env={**os.environ, "STACKS_RATE_LIMITS": "off", **env},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/api/v1/health", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start")

    def children(self) -> set[int]:
        """The pids of the processes ``serve`` runs: the web server and the bot workers."""
        found: set[int] = set()
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            found |= {int(pid) for pid in (task / "children").read_text().split()}
        return found

    def stop(self) -> float:
        """Stop the server with TERM, as an orchestrator would; how long it took."""
        start = time.monotonic()
        self.process.terminate()
        self.process.wait(timeout=10)
        return time.monotonic() - start


def lease_holders(client: redis.Redis, prefix: str) -> dict[str, int]:
    """Each game a runner holds now, and the pid of that runner's process (lease owners
    are ``host:pid:thread:nonce``)."""
    leases: dict[bytes, bytes] = client.hgetall(Keys(prefix).leases())  # type: ignore[assignment]
    return {game.decode(): int(held.decode().split(":")[1]) for game, held in leases.items()}


def parse_sse(
    lines: Iterable[str], stop_after_id: int | None = None
) -> Iterator[tuple[int | None, dict[str, Any] | None]]:
    """(last id seen, event) per SSE message from a stream's lines; a comment is (None, None)."""
    data: list[str] = []
    last_id = None
    for line in lines:
        if line.startswith(":"):
            yield None, None
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line.startswith("id: "):
            last_id = int(line[4:])
        elif line == "" and data:
            yield last_id, json.loads("\n".join(data))
            data = []
            if stop_after_id is not None and last_id is not None and last_id >= stop_after_id:
                return
