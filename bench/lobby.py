"""A flood of lobby reads, and how quickly the server still answers everything else.

    python bench/lobby.py [--games 1500] [--readers 8] [--seconds 10]

Starts its own redis-server and ``stacks-api serve`` (2 gevent web workers, rate
limits off, so the flood really arrives), creates --games waiting games, then
runs, back to back and for --seconds each:
  1. baseline: one client times GET /api/v1/health, nothing else running;
  2. the same, while --readers threads read lobby pages of 50 back to back, with
     the server's one-second page cache (the default);
  3. the same flood with the page cache off (STACKS_LOBBY_CACHE_S=0), on a fresh
     server over the same Redis: every read lists and reads 50 games.
Target (issue 22): /health p99 under 50 ms during the flood. With rate limits
on (the default), one address gets 5 pages a second, 120 a minute.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import time
from functools import partial

import requests
from load import hammer, percentile, run_threads

from stacks_api.testing import RedisServer, ServerProcess

PREFIX = "lobby"


def fill(url: str, games: int) -> None:
    session = requests.Session()
    for n in range(games):
        body = {"variant": ("sequence", "stacks")[n % 2], "players": 2}
        assert session.post(f"{url}/api/v1/games", json=body, timeout=5).status_code == 201


def phase(url: str, readers: int, seconds: float) -> tuple[list[float], list[float]]:
    """Health latencies, and lobby page latencies from ``readers`` threads."""
    until = time.perf_counter() + seconds
    health: list[float] = []
    pages: list[float] = []
    lobby = f"{url}/api/v1/games?status=waiting&page_size=50"
    targets = [partial(hammer, f"{url}/api/v1/health", until, health)]
    targets += [partial(hammer, lobby, until, pages) for _ in range(readers)]
    run_threads(targets)
    return health, pages


def report(name: str, health: list[float], pages: list[float], seconds: float) -> None:
    p50, p99 = percentile(health, 0.5), percentile(health, 0.99)
    line = f"{name:<34} health p50 {p50:6.1f} ms  p99 {p99:6.1f} ms"
    if pages:
        line += (f"   lobby {len(pages) / seconds:6.0f} pages/s  p99 "
                 f"{percentile(pages, 0.99):6.1f} ms")  # fmt: skip
    print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--readers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    store = RedisServer()
    store.start()
    env = {"REDIS_URL": store.url, "STACKS_STORE_PREFIX": PREFIX, "STACKS_RATE_LIMITS": "off"}
    try:
        server = ServerProcess(env, workers=2, bot_workers=0)
        try:
            fill(server.url, args.games)
            setup = f"{args.games} waiting games, {args.readers} lobby readers"
            print(f"{setup}, {args.seconds:g} s a phase")
            health, _ = phase(server.url, 0, args.seconds)
            report("baseline (no flood)", health, [], args.seconds)
            health, pages = phase(server.url, args.readers, args.seconds)
            report("flood, page cache on (default)", health, pages, args.seconds)
        finally:
            server.stop()
        server = ServerProcess({**env, "STACKS_LOBBY_CACHE_S": "0"}, workers=2, bot_workers=0)
        try:
            health, pages = phase(server.url, args.readers, args.seconds)
            report("flood, page cache off", health, pages, args.seconds)
        finally:
            server.stop()
    finally:
        store.cleanup()


if __name__ == "__main__":
    main()
