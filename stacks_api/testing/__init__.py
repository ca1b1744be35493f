"""Throwaway servers for tests and benchmarks: a redis-server, a Redis Cluster, a
PostgreSQL server and ``stacks-api serve``.

Each runs on free loopback ports in temporary directories and never touches a
server or a port that someone else owns.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import redis

from ..store.keys import Keys
from .sse import parse_sse

__all__ = ["parse_sse"]  # read by the tests from here


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
        _wait_for_ping(self.url)

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


class PostgresServer:
    """A PostgreSQL server of our own on a free port, in a temporary directory: run
    as the ``postgres`` user when we are root (the server refuses root).

    ``fast`` turns off fsync (tests); benchmarks keep the defaults. ``url`` is its
    maintenance database; ``create_database`` makes one to own and drop.
    """

    def __init__(self, fast: bool = True) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="stacks-postgres-")
        self.data = os.path.join(self.dir, "data")
        self.fast = fast
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        if not os.path.isdir(self.data):
            if os.geteuid() == 0:
                shutil.chown(self.dir, "postgres")
            self._run("initdb", "-D", self.data, "-U", "postgres", "-A", "trust", "--no-sync",
                      "-E", "UTF8")  # fmt: skip
        settings = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1"
        if self.fast:
            settings += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        log = os.path.join(self.dir, "server.log")
        self._run("pg_ctl", "-D", self.data, "-o", settings, "-l", log, "-w", "start")

    def stop(self, immediate: bool = False) -> None:
        """Stop the server; ``immediate`` is a crash (no checkpoint, clients cut off)."""
        if os.path.isfile(os.path.join(self.data, "postmaster.pid")):
            mode = "immediate" if immediate else "fast"
            self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        argv = [postgres_binary(program), *args]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def postgres_binary(program: str) -> str:
    """A PostgreSQL program: on the PATH, else Debian's newest installed version."""
    found = shutil.which(program)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{program}"),
                      key=lambda p: int(p.parts[-3]))  # fmt: skip
    if not versions:
        raise RuntimeError(f"{program} is not installed (apt-get install postgresql)")
    return str(versions[-1])


def create_database(admin_url: str, prefix: str = "stacks_test") -> str:
    """A new, empty database on the server of ``admin_url``; its URL."""
    import psycopg

    name = f"{prefix}_{os.urandom(6).hex()}"
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


@contextlib.contextmanager
def scratch_archive(kind: str) -> Iterator[str]:
    """An archive URL for a benchmark: a fresh SQLite file, or a database on a
    private PostgreSQL server (``kind`` "postgresql") that is gone afterwards."""
    if kind != "postgresql":
        yield f"sqlite:///{tempfile.mkdtemp()}/archive.sqlite3"
        return
    postgres = PostgresServer(fast=False)
    postgres.start()
    try:
        yield create_database(postgres.url)
    finally:
        postgres.cleanup()


def drop_database(url: str) -> None:
    """Drop a database ``create_database`` made (cutting off its last clients)."""
    import psycopg

    admin, name = url.rsplit("/", 1)
    with psycopg.connect(f"{admin}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_cluster_port() -> int:
    """A free port whose cluster bus port (the port + 10000) is free too."""
    while True:
        port = random.randrange(20_000, 55_000)
        try:
            for candidate in (port, port + 10_000):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        return port


class RedisClusterServer:
    """A Redis Cluster of our own: ``masters`` masters with ``replicas`` replicas each, every
    node a redis-server on a free port in a temporary directory.

    ``url`` is the store's cluster URL (``redis+cluster://`` and every node). A node
    can be killed (``kill``) and started again on its old port and identity
    (``restart``), as a supervisor would after a crash.
    """

    NODE_TIMEOUT_MS = 1000  # how long a master may be silent before its replica takes over

    def __init__(self, masters: int = 3, replicas: int = 1) -> None:
        self.dir = tempfile.mkdtemp(prefix="stacks-cluster-")
        self.replicas = replicas
        self.ports = [free_cluster_port() for _ in range(masters * (1 + replicas))]
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        self.url = "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self) -> None:
        for port in self.ports:
            self._start_node(port)
        for port in self.ports:
            _wait_for_ping(f"redis://127.0.0.1:{port}/0")
        subprocess.run(
            ["redis-cli", "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports),
             "--cluster-replicas", str(self.replicas), "--cluster-yes"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.wait_until_healthy()

    def _start_node(self, port: int) -> None:
        node_dir = Path(self.dir) / str(port)
        node_dir.mkdir(exist_ok=True)
        self.processes[port] = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(node_dir),
             "--save", "", "--appendonly", "no", "--cluster-enabled", "yes",
             "--cluster-config-file", "nodes.conf",
             "--cluster-node-timeout", str(self.NODE_TIMEOUT_MS)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def masters(self) -> list[int]:
        """The ports of the nodes that are masters now."""
        return [port for port in self.live() if self._role(port) == "master"]

    def live(self) -> list[int]:
        return [port for port, process in self.processes.items() if process.poll() is None]

    def master_of(self, key: str) -> int:
        """The port of the master that holds ``key``'s slot now."""
        from redis.crc import key_slot

        slot = key_slot(key.encode())
        for port in self.masters():
            client = redis.Redis(port=port)
            for start, end, master, *_replicas in client.execute_command("CLUSTER", "SLOTS"):  # type: ignore[no-untyped-call]
                if start <= slot <= end:
                    return int(master[1])
        raise RuntimeError(f"no master holds slot {slot}")

    def _role(self, port: int) -> str:
        try:
            info: dict[str, Any] = redis.Redis(port=port).info("replication")
        except redis.RedisError:
            return "down"
        return str(info["role"])

    def kill(self, port: int) -> None:
        """Crash one node (SIGKILL): no chance to answer anyone again."""
        process = self.processes[port]
        process.kill()
        process.wait(timeout=10)

    def restart(self, port: int) -> None:
        """Start a killed node again: it rejoins with its old identity (as a replica,
        if its replica took over meanwhile)."""
        self._start_node(port)
        _wait_for_ping(f"redis://127.0.0.1:{port}/0")

    def wait_until_healthy(self, timeout: float = 30.0) -> None:
        """Until every live node says the cluster is ok and every replica is in sync."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self._healthy(port) for port in self.live()):
                return
            time.sleep(0.1)
        raise RuntimeError("the Redis Cluster did not become healthy")

    def _healthy(self, port: int) -> bool:
        try:
            node = redis.Redis(port=port)
            info = node.execute_command("CLUSTER", "INFO").decode()  # type: ignore[no-untyped-call]
            replication: dict[str, Any] = node.info("replication")
        except redis.RedisError:
            return False
        fields = dict(line.split(":", 1) for line in info.split() if ":" in line)
        if fields.get("cluster_state") != "ok":
            return False
        if replication["role"] == "master":
            return int(replication["connected_slaves"]) >= self.replicas
        return replication.get("master_link_status") == "up"

    def cleanup(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def _wait_for_ping(url: str) -> None:
    client = redis.Redis.from_url(url)
    for _ in range(250):
        try:
            client.ping()
            return
        except redis.ConnectionError:
            time.sleep(0.02)
    raise RuntimeError(f"redis-server at {url} did not start")


TEST_SERVER = {
    "STACKS_RATE_LIMITS": "off",
    "STACKS_STORE": "memory",
    "STACKS_ESTABLISHED_OPPONENTS": "0",
    "STACKS_ESTABLISHED_DAYS": "0",
}


class ServerProcess:
    """``stacks-api serve`` on a free port: gevent web workers and, on Redis, bot workers.
    What it prints is kept in a file, and a server that does not start says why."""

    START_S = 60.0  # a bound, not a timing: many servers boot at once on a busy machine

    def __init__(
        self, env: dict[str, str], workers: int = 1, bot_workers: int = 1, port: int | None = None
    ) -> None:
        command = ["serve", "--workers", str(workers), "--bot-workers", str(bot_workers),
                   "--no-access-log"]  # fmt: skip
        # Unless ``env`` asks: no rate limits (tests and benchmarks send far more than
        # one client would), games in memory without REDIS_URL (STACKS_STORE="" for the
        # server's own redis-server), and fresh accounts counting fully as opponents.
        everything = {**os.environ, **TEST_SERVER, **env}
        self.log = Path(tempfile.mkstemp(prefix="stacks-serve-", suffix=".log")[1])
        for _ in range(3):  # a free port may be taken before the server binds it
            self.port = port or free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            with self.log.open("wb") as log:
                self.process = subprocess.Popen(
                    [sys.executable, "-m", "stacks_api.cli", *command, "--port", str(self.port)],
                    env=everything, stdout=log, stderr=subprocess.STDOUT,
                    start_new_session=True,  # a group of its own: ``kill_all`` ends it whole
                )  # fmt: skip
            if self._started():
                return
            printed = self.output()
            self._end()  # before another try: a supervisor may still be restarting it
            if port is not None or "in use" not in printed:
                break
        self.log.unlink(missing_ok=True)
        raise RuntimeError(f"the server did not start:\n{printed[-2000:]}")

    def _started(self) -> bool:
        """Wait for the health check; False if the server exited or ran out of time."""
        deadline = time.monotonic() + self.START_S
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with urllib.request.urlopen(f"{self.url}/api/v1/health", timeout=1) as answer:
                    if answer.status == 200:
                        return True
            except OSError:
                time.sleep(0.1)
        return False

    def output(self) -> str:
        """What the server has printed so far."""
        return self.log.read_text(errors="replace")

    def children(self) -> set[int]:
        """The pids of the processes ``serve`` runs: the web server and the bot workers."""
        found: set[int] = set()
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            found |= {int(pid) for pid in (task / "children").read_text().split()}
        return found

    def stop(self) -> float:
        """Stop the server with TERM, as an orchestrator would; how long it took."""
        start = time.monotonic()
        self._end()
        self.log.unlink(missing_ok=True)
        return time.monotonic() - start

    def kill_all(self) -> None:
        """``kill -9`` of every process of the server at once, as a power cut would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def _end(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def lease_holders(client: Any, keys: Keys) -> dict[str, int]:
    """Each game a runner holds now, and the pid of that runner's process (lease owners
    are ``host:pid:thread:nonce``)."""
    holders: dict[str, int] = {}
    for shard in keys.all_shards():
        leases: dict[bytes, bytes] = client.hgetall(keys.leases(shard))
        holders |= {
            game.decode(): int(held.decode().split(":")[1]) for game, held in leases.items()
        }
    return holders
