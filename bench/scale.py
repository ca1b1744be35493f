"""One Redis against a 3-master Redis Cluster, with 1, 2 and 4 API processes and 1
and 2 bot workers: throughput, p99 and deliveries missing per configuration.

    python bench/scale.py [--seconds 8] [--clients 4] [--streams 50] [--bot-games 12]

For each configuration, a fresh store and ``stacks-api serve`` on it, then at once:
  - --clients threads each play two-human Sequence games with random legal
    actions (GET the game, GET the mover's view, POST the action), and one more
    thread times GET /api/v1/health, for --seconds;
  - --streams SSE streams follow the first game of each client, from its first
    event to its end (asyncio sockets); afterwards each stream's versions are
    compared with the game's stored events: a version missing is a delivery
    missing;
  - --bot-games all-bot Sequence games (greedy bots, so the bots' thinking does
    not hide the store) are started at the same moment; bot moves per second is
    every version they made over the time until the last one ended.
This machine has 2 cores, and the load, the server, the bot workers and every
Redis share them: the figures show the shape (a new bottleneck, anything lost),
not what more machines would carry. Compare each row with the first (one Redis,
one process), measured in the same run.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import requests
from load import Game, hammer, percentile, play, run_threads
from streams import Streams

from stacks_api.client import Client
from stacks_api.testing import RedisClusterServer, RedisServer, ServerProcess

CONFIGS = [(store, web, bots) for store in ("redis", "cluster") for web in (1, 2, 4)
           for bots in (1, 2)]  # fmt: skip


@contextmanager
def store_of(kind: str) -> Iterator[str]:
    """A fresh Redis or Redis Cluster; yields its URL."""
    server = RedisServer() if kind == "redis" else RedisClusterServer()
    server.start()
    try:
        yield server.url
    finally:
        server.cleanup()


def bot_moves(url: str, games: list[str], started: float, limit_s: float) -> float:
    """Bot moves per second, from ``started`` until every game ended (or ``limit_s``)."""
    session = requests.Session()
    while time.perf_counter() - started < limit_s:
        views = [session.get(f"{url}/api/v1/games/{g}", timeout=10).json() for g in games]
        if all(v["status"] != "active" for v in views):
            break
        time.sleep(0.2)
    elapsed = time.perf_counter() - started
    return sum(v["version"] for v in views) / elapsed


def measure(kind: str, web: int, bots: int, args: argparse.Namespace) -> dict[str, Any]:
    with store_of(kind) as store_url:
        server = ServerProcess({"REDIS_URL": store_url}, workers=web, bot_workers=bots)
        try:
            api = Client(server.url)
            firsts = [Game(api, 100 + n) for n in range(args.clients)]
            streams = [Streams(server.port, g.id, args.streams) for g in firsts]
            for followers in streams:
                followers.start(timeout=120)
            seats = [{"bot": "easy"}] * 2
            started = time.perf_counter()
            bot_games = [
                api.create("sequence", 2, seats=seats)["id"] for _ in range(args.bot_games)
            ]
            until = time.perf_counter() + args.seconds
            out: dict[str, list[Any]] = {"action": [], "errors": []}
            health: list[float] = []
            targets = [lambda n=n: play(server.url, until, n, out, firsts[n])
                       for n in range(args.clients)]  # fmt: skip
            elapsed = run_threads([*targets, lambda: hammer(f"{server.url}/api/v1/health",
                                                            until, health)])  # fmt: skip
            moves = bot_moves(server.url, bot_games, started, limit_s=120)
            missing = opened = 0
            for game, followers in zip(firsts, streams, strict=True):
                stored = {e["version"] for e in api.events(game.id)}
                deadline = time.monotonic() + 5  # the last events are still on their way
                while time.monotonic() < deadline and any(
                    set(seen) != stored for seen in followers.arrivals
                ):
                    time.sleep(0.1)
                followers.stop()
                opened += followers.opened
                missing += sum(len(stored - set(seen)) for seen in followers.arrivals)
        finally:
            server.stop()
    return {
        "actions": len(out["action"]) / elapsed,
        "action_p99": percentile(out["action"], 0.99),
        "health_p99": percentile(health, 0.99),
        "bot_moves": moves,
        "streams": opened,
        "missing": missing,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--streams", type=int, default=50, help="streams per followed game")
    parser.add_argument("--bot-games", type=int, default=12)
    args = parser.parse_args()

    print(f"{args.clients} playing clients + 1 health client for {args.seconds:g} s; "
          f"{args.clients} x {args.streams} streams; "
          f"{args.bot_games} greedy-bot games")  # fmt: skip
    print("store    web bots   actions/s (x first)  action p99  health p99  bot moves/s (x first)"
          "  streams  missing")  # fmt: skip
    first: dict[str, Any] | None = None
    for kind, web, bots in CONFIGS:
        row = measure(kind, web, bots, args)
        first = first or row
        actions, moves = row["actions"], row["bot_moves"]
        print(f"{kind:8} {web:3} {bots:4}   {actions:8.1f} ({actions / first['actions']:4.2f}x)"
              f"  {row['action_p99']:7.1f} ms  {row['health_p99']:7.1f} ms"
              f"  {moves:8.1f} ({moves / first['bot_moves']:4.2f}x)"
              f"  {row['streams']:7}  {row['missing']:7}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
