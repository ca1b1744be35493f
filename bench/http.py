"""The whole server under load, through real HTTP, on Redis.

    python bench/http.py [--seconds 20] [--clients 8] [--workers 2]

Starts its own redis-server and gunicorn (threaded workers), then runs, at the
same time: client threads playing many two-human Sequence games with random
legal actions (GET the mover's view, POST one action), one thread timing
GET /api/v1/health the same way, and event streams on some games timing how
long an action's events take to reach a listener after its response. Finally
it measures Redis memory per active game.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is named http.py: keep its folder off the path, or it hides the stdlib's http.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

import argparse
import random
import statistics
import threading
import time

import redis
import requests

from stacks_api.testing import RedisServer, ServerProcess, parse_sse

SSE = {"Accept": "text/event-stream"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


class Game:
    """A two-human game and its seat tokens."""

    def __init__(self, session: requests.Session, base: str, seed: int) -> None:
        body = {"variant": "sequence", "players": 2, "seed": seed}
        self.id = session.post(f"{base}/games", json=body).json()["game"]["id"]
        self.tokens = [
            session.post(f"{base}/games/{self.id}/players", json={"name": f"p{i}"}).json()["token"]
            for i in range(2)
        ]


class Listener(threading.Thread):
    """Streams one game's events and notes when each version arrives."""

    def __init__(self, base: str, game_id: str) -> None:
        super().__init__(daemon=True)
        self.arrivals: dict[int, float] = {}
        self.response = requests.get(f"{base}/games/{game_id}/events", headers=SSE, stream=True)

    def run(self) -> None:
        try:
            for version, event in parse_sse(self.response.iter_lines(decode_unicode=True)):
                if event is not None and version is not None:
                    self.arrivals.setdefault(version, time.perf_counter())
        except requests.RequestException:
            return


def play(base: str, until: float, seed: int, out: dict[str, list[float]], streams: int) -> None:
    session = requests.Session()
    rng = random.Random(seed)
    game, listener = None, None
    while time.perf_counter() < until:
        if game is None:
            game = Game(session, base, rng.randrange(1 << 30))
            if streams > 0:
                streams -= 1
                listener = Listener(base, game.id)
                listener.start()
        view = session.get(f"{base}/games/{game.id}").json()
        if view["status"] != "active":
            game, listener = None, None
            continue
        auth = {"Authorization": f"Bearer {game.tokens[view['to_move'][0]]}"}
        mine = session.get(f"{base}/games/{game.id}", headers=auth).json()
        action = rng.choice(mine["you"]["legal_actions"])
        start = time.perf_counter()
        answer = session.post(f"{base}/games/{game.id}/actions", json=action, headers=auth)
        done = time.perf_counter()
        if answer.status_code != 200:
            out["errors"].append(answer.status_code)
            continue
        out["action"].append(done - start)
        if listener is not None:
            out["pending"].append((listener, answer.json()["game"]["version"], done))


def health(base: str, until: float, out: list[float]) -> None:
    session = requests.Session()
    while time.perf_counter() < until:
        start = time.perf_counter()
        session.get(f"{base}/health")
        out.append(time.perf_counter() - start)


def memory_per_game(base: str, redis_url: str, games: int) -> float:
    client = redis.Redis.from_url(redis_url)
    before = int(client.info("memory")["used_memory"])
    session = requests.Session()
    for seed in range(games):
        game = Game(session, base, seed)
        auth = {"Authorization": f"Bearer {game.tokens[0]}"}
        view = session.get(f"{base}/games/{game.id}", headers=auth).json()
        if view["to_move"] == [0]:
            session.post(f"{base}/games/{game.id}/actions", json=view["you"]["legal_actions"][0],
                         headers=auth)  # fmt: skip
    return (int(client.info("memory")["used_memory"]) - before) / games


def streams_for(client: int, args: argparse.Namespace) -> int:
    """Spread the streamed games over the client threads."""
    return args.streams // args.clients + (client < args.streams % args.clients)


def report(name: str, times: list[float], elapsed: float | None, note: str) -> None:
    rate = f"{len(times) / elapsed:8.1f}/s" if elapsed else f"{len(times):6d} seen"
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    print(f"{name:16} {rate}   p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   ({note})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--streams", type=int, default=4, help="games followed by a stream")
    args = parser.parse_args()

    store = RedisServer()
    store.start()
    server = ServerProcess({"REDIS_URL": store.url}, workers=args.workers, threads=16)
    base = f"{server.url}/api/v1"
    try:
        out: dict[str, list] = {"action": [], "errors": [], "pending": []}
        health_times: list[float] = []
        until = time.perf_counter() + args.seconds
        threads = [
            threading.Thread(target=play, args=(base, until, n, out, streams_for(n, args)))
            for n in range(args.clients)
        ]
        threads.append(threading.Thread(target=health, args=(base, until, health_times)))
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
        time.sleep(0.5)  # let the last events reach their streams
        delivery = [
            listener.arrivals[v] - done
            for listener, v, done in out["pending"]
            if v in listener.arrivals
        ]
        print(f"gunicorn {args.workers} workers (gthread), {args.clients} client threads, "
              f"{elapsed:.1f}s, Redis store")  # fmt: skip
        report("POST actions", out["action"], elapsed, f"errors {len(out['errors'])}")
        report("GET health", health_times, elapsed, "one sequential client, same run")
        if delivery:
            mean = statistics.mean(delivery) * 1000
            report("event delivery", delivery, None, f"response -> stream, mean {mean:.1f} ms")
        per_game = memory_per_game(base, store.url, 200)
        print(f"{'Redis memory':16} {per_game:8.0f} bytes per active game (200 two-player games)")
    finally:
        server.stop()
        store.cleanup()


if __name__ == "__main__":
    main()
