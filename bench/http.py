"""Request throughput of the whole server on Redis, through real HTTP.

    python bench/http.py [--seconds 10] [--clients 8] [--workers 2]

Starts its own redis-server and ``stacks-api serve`` (gevent web workers, one
bot worker), then runs three phases of the same length with the same number of
client threads, back to back:
  1. GET /api/v1/health (the baseline: routing, no store work);
  2. GET a seat's view of an active two-human Sequence game;
  3. play, through stacks_api.client: GET the game, GET the mover's view,
     then POST one random legal action (with an Idempotency-Key).
Each phase's throughput is printed with its ratio to health. Actions alone
are worked out from phases 2 and 3: a saturated server spends 1/rate seconds
of its capacity per request, so one POST costs 1/play - 1/view. Finally it
prints the Redis memory per active game.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is named http.py: keep its folder off the front of the path, or it
# hides the stdlib's http; the helpers beside it are still found at the end.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import time

import redis
from load import Game, hammer, percentile, play, run_threads, served_on_redis

from stacks_api.client import Client


def memory_per_game(url: str, redis_url: str, games: int) -> float:
    client = redis.Redis.from_url(redis_url)
    before = int(client.info("memory")["used_memory"])
    api = Client(url)
    for seed in range(games):
        Game(api, seed)
    return (int(client.info("memory")["used_memory"]) - before) / games


def report(name: str, count: int, elapsed: float, health: float, times: list[float]) -> None:
    rate = count / elapsed
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    print(f"{name:18} {rate:8.1f}/s  {rate / health:5.2f}x health   "
          f"p50 {p50:6.1f} ms   p99 {p99:6.1f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    with served_on_redis({}, args.workers) as (server, redis_url):
        base = f"{server.url}/api/v1"
        games = [Game(Client(server.url), seed) for seed in range(args.clients)]
        health: list[float] = []
        views: list[float] = []
        out: dict[str, list] = {"action": [], "errors": []}

        def phase(make) -> float:
            until = time.perf_counter() + args.seconds
            return run_threads([make(n, until) for n in range(args.clients)])

        t_health = phase(lambda n, until: lambda: hammer(f"{base}/health", until, health))
        t_view = phase(
            lambda n, until: (
                lambda: hammer(f"{base}/games/{games[n].id}", until, views, games[n].auth(0))
            )
        )
        t_play = phase(lambda n, until: lambda: play(server.url, until, n, out))
        health_rate = len(health) / t_health
        print(f"stacks-api serve: {args.workers} gevent web workers, Redis; "
              f"{args.clients} client threads, {args.seconds:.0f} s a phase")  # fmt: skip
        report("GET health", len(health), t_health, health_rate, health)
        report("GET seat view", len(views), t_view, health_rate, views)
        report("play (GET+POST)", len(out["action"]), t_play, health_rate, out["action"])
        view_rate, play_rate = len(views) / t_view, len(out["action"]) / t_play
        action_rate = 1 / (1 / play_rate - 2 / view_rate)
        print(f"{'POST action':18} {action_rate:8.1f}/s  {action_rate / health_rate:5.2f}x health"
              f"   (a play is 2 GETs and a POST; errors {len(out['errors'])})")  # fmt: skip
        per_game = memory_per_game(server.url, redis_url, 200)
        print(f"{'Redis memory':18} {per_game:8.0f} bytes per active game (200 two-player games)")


if __name__ == "__main__":
    main()
