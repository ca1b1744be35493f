"""Load-generation helpers shared by the HTTP benchmarks (client threads on requests)."""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from stacks_api.client import ApiError, Client
from stacks_api.testing import RedisServer, ServerProcess


def percentile(values: list[float], q: float) -> float:
    """The q-quantile of ``values`` (seconds), in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


class Game:
    """A two-human Sequence game and its seat tokens."""

    def __init__(self, api: Client, seed: int) -> None:
        self.id = api.create("sequence", 2, seed=seed)["id"]
        self.tokens = [api.join(self.id, f"p{i}").token for i in range(2)]

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


def play(
    url: str, until: float, seed: int, out: dict[str, list[Any]], first: Game | None = None
) -> None:
    """Play random legal actions through the client (GET the game, GET the mover's view,
    POST one action with an Idempotency-Key) until ``until``: ``first``, if given,
    then new games."""
    api = Client(url)
    rng = random.Random(seed)
    game = first
    while time.perf_counter() < until:
        if game is None:
            game = Game(api, rng.randrange(1 << 30))
        spectator = api.view(game.id)
        if spectator["status"] != "active":
            game = None
            continue
        token = game.tokens[spectator["to_move"][0]]
        mine = api.view(game.id, token)
        start = time.perf_counter()
        try:
            answer = api.act(game.id, token, rng.choice(mine["you"]["legal_actions"]))
        except ApiError as refused:
            out["errors"].append(refused.status)
            continue
        done = time.perf_counter()
        out["action"].append(done - start)
        out.setdefault("answers", []).append((game.id, answer["game"]["version"], done))


def hammer(url: str, until: float, out: list[float], headers: dict[str, str] | None = None) -> None:
    """GET ``url`` back to back until ``until``, noting each latency."""
    session = requests.Session()
    while time.perf_counter() < until:
        start = time.perf_counter()
        session.get(url, headers=headers or {})
        out.append(time.perf_counter() - start)


def run_threads(targets: list[Callable[[], None]]) -> float:
    """Run each target on its own thread; the seconds until all are done."""
    threads = [threading.Thread(target=target) for target in targets]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def web_workers(server: ServerProcess) -> list[int]:
    """The pids of the server's gunicorn workers (the children of its web server)."""
    found: list[int] = []
    for parent in server.children():
        for task in Path(f"/proc/{parent}/task").iterdir():
            found += [int(pid) for pid in (task / "children").read_text().split()]
    return found


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU seconds the processes have used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def resident_mb(pids: list[int]) -> float:
    """The processes' resident memory, in MB."""
    pages = sum(int(Path(f"/proc/{pid}/statm").read_text().split()[1]) for pid in pids)
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


@contextmanager
def served_on_redis(env: dict[str, str], workers: int = 2) -> Iterator[tuple[ServerProcess, str]]:
    """``stacks-api serve`` on a redis-server of its own; yields the server and the Redis URL."""
    store = RedisServer()
    store.start()
    server = ServerProcess({"REDIS_URL": store.url, "STACKS_RATE_LIMITS": "off", **env}, workers)
    try:
        yield server, store.url
    finally:
        server.stop()
        store.cleanup()
