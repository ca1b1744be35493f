"""The archive's figures, each beside its baseline measured in the same run.

    python bench/archive.py [--games 2000] [--against REV]

Starts its own PostgreSQL (fsync on, as in production) and redis-server, then:
  1. inserts: games archived a second, one game a transaction and batches of
     100, beside plain INSERTs of rows of the same size into a bare table (the
     anchor: what PostgreSQL itself does here);
  2. bytes: the archive's bytes a game (tables and indexes) for 2-player
     Sequence games between the greedy bots;
  3. export: games a second on one NDJSON stream of a player's history through
     `stacks-api serve`;
  4. lag: how long a game waits to be archived while games end at ten times the
     rate a 2-worker server finishes bot games (measured first), archived by a
     server's 2 worker processes;
  5. actions: the write path's actions a second (a view and an action each) on
     Redis, beside the same at --against (default: the revision before the
     archive) in the same run, rounds alternating.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import threading
import time
import uuid
from dataclasses import replace

import psycopg
import requests
from revision import checkout
from sqlalchemy import Connection, text

from stacks_api.app import create_app
from stacks_api.archive import open_archive
from stacks_api.model.record import Archived
from stacks_api.runtime.config import TestConfig
from stacks_api.testing import (
    PostgresServer,
    RedisServer,
    ServerProcess,
    create_database,
    drop_database,
)

BASELINE = "92a2738"  # the last revision without the archive


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def greedy_games(count: int) -> list[Archived]:
    """``count`` 2-player Sequence games between the greedy bots, as the archive
    keeps them (played in this process on the embedded store)."""
    from stacks_api.service.archiving import archived

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(TestConfig, DATABASE_URL=f"sqlite:///{folder}/a.sqlite3", JOBS="workers")
        service = app.extensions["stacks_api.games"]
        ids = [service.lobby.create({"variant": "sequence", "players": 2,
                                     "seats": [{"bot": "easy"}, {"bot": "easy"}]})[0]["id"]
               for _ in range(count)]  # fmt: skip
        for game_id in ids:
            while service.store.load(game_id).status == "active":
                service.turns.advance(game_id, lambda: True)
        games = [archived(service.store.load(g), service.store.events_after(g, 0)) for g in ids]
        service.archive.engine.dispose()
    return games


def copies(games: list[Archived], count: int, player: str | None = None) -> list[Archived]:
    """``count`` games made from ``games`` with fresh ids (seat 0 is ``player``'s)."""
    made = []
    for n in range(count):
        game = games[n % len(games)]
        new_id = uuid.uuid4().hex[:16]
        seats = tuple(replace(s, player_id=player) if s.seat == 0 else s for s in game.seats)
        document = {**game.document, "id": new_id}
        made.append(replace(game, id=new_id, ended_at=game.ended_at + n, document=document,
                            seats=seats))  # fmt: skip
    return made


def inserts(url: str, games: list[Archived], count: int) -> None:
    archive = open_archive(url)
    one, batched = copies(games, count), copies(games, count)
    started = time.perf_counter()
    for game in one:
        archive.games.put([game])
    one_rate = count / (time.perf_counter() - started)
    started = time.perf_counter()
    for first in range(0, count, 100):
        archive.games.put(batched[first : first + 100])
    batch_rate = count / (time.perf_counter() - started)
    size = len(json.dumps(games[0].document)) // 3  # about the compressed size of a game
    with psycopg.connect(url.replace("+psycopg", ""), autocommit=False) as connection:
        connection.execute("CREATE TABLE plain (id text PRIMARY KEY, data bytea)")
        connection.commit()
        blob = os.urandom(size)
        started = time.perf_counter()
        for _ in range(count):
            connection.execute("INSERT INTO plain VALUES (%s, %s)", (uuid.uuid4().hex, blob))
            connection.commit()
        plain_one = count / (time.perf_counter() - started)
        started = time.perf_counter()
        for _ in range(0, count, 100):
            with connection.cursor() as cursor:
                cursor.executemany("INSERT INTO plain VALUES (%s, %s)",
                                   [(uuid.uuid4().hex, blob) for _ in range(100)])  # fmt: skip
            connection.commit()
        plain_batch = count / (time.perf_counter() - started)
    archive.engine.dispose()
    print(f"inserts, one a transaction: archive {one_rate:7.0f} games/s, plain INSERT "
          f"{plain_one:7.0f} rows/s ({one_rate / plain_one:.2f}x); goal >= 400")  # fmt: skip
    print(f"inserts, batches of 100:    archive {batch_rate:7.0f} games/s, plain INSERT "
          f"{plain_batch:7.0f} rows/s ({batch_rate / plain_batch:.2f}x); "
          "goal >= 1,500")  # fmt: skip


def size(url: str, games: list[Archived], count: int) -> None:
    archive = open_archive(url)
    with archive.engine.connect() as connection:
        before = _bytes(connection)
    archive.games.put(copies(games, count))
    with archive.engine.connect() as connection:
        after = _bytes(connection)
    events = statistics.mean(len(g.document["events"]) for g in games)
    print(f"bytes a game: {(after - before) / count:7.0f} (tables and indexes; 2-player "
          f"Sequence, greedy bots, {events:.0f} events a game); goal <= 2,048")  # fmt: skip
    archive.engine.dispose()


def _bytes(connection: Connection) -> int:
    query = text("SELECT sum(pg_total_relation_size(c)) FROM unnest(ARRAY['games', "
                 "'game_seats']::regclass[]) c")  # fmt: skip
    return int(connection.execute(query).scalar() or 0)


def export(url: str, games: list[Archived], count: int) -> None:
    archive = open_archive(url)
    player, _ = archive.accounts.create("Exporter", "bench")
    made = copies(games, count, player["id"])
    for first in range(0, count, 500):
        archive.games.put(made[first : first + 500])
    archive.engine.dispose()
    server = ServerProcess({"REDIS_URL": "", "DATABASE_URL": url})
    try:
        started = time.perf_counter()
        address = f"{server.url}/api/v1/players/{player['id']}/games"
        ndjson = {"Accept": "application/x-ndjson"}
        with requests.get(address, stream=True, headers=ndjson, timeout=60) as answer:
            lines = sum(1 for line in answer.iter_lines() if line)
        rate = lines / (time.perf_counter() - started)
    finally:
        server.stop()
    print(f"export: {rate:7.0f} games/s on one NDJSON stream ({lines} games; lichess "
          f"allows 20-60); goal >= 1,000")  # fmt: skip


def finish_rate(server: ServerProcess, seconds: float = 15) -> float:
    """Bot games (random against random) a 2-worker server finishes a second."""
    from stacks_api.client import Client

    api = Client(server.url)
    ids = [api.create("sequence", 2, seats=[{"bot": "random"}] * 2)["id"] for _ in range(300)]
    time.sleep(2)
    done_before = sum(api.view(g)["status"] == "finished" for g in ids)
    time.sleep(seconds)
    done_after = sum(api.view(g)["status"] == "finished" for g in ids)
    return (done_after - done_before) / seconds


def lag(url: str, redis_url: str, seconds: float) -> None:
    env = {"REDIS_URL": redis_url, "DATABASE_URL": url, "STACKS_STORE_PREFIX": "lag"}
    server = ServerProcess(env, workers=2, bot_workers=2)
    try:
        rate = finish_rate(server)
        target = 10 * max(rate, 1.0)
        app = create_app(TestConfig, REDIS_URL=redis_url, DATABASE_URL=url, STORE_PREFIX="lag",
                         JOBS="workers", DATABASE_MIGRATE=False)  # fmt: skip
        service = app.extensions["stacks_api.games"]
        dealt = []
        for _ in range(int(target * seconds)):
            view, _ = service.lobby.create({"variant": "sequence", "players": 2})
            tokens = [service.lobby.join(view["id"], name, None)["token"] for name in "AB"]
            service.lobby.cancel(view["id"], tokens[0])  # the first agrees to end it
            dealt.append((view["id"], tokens[1]))  # the second's agreement ends it, timed
        ended: dict[str, float] = {}
        seen: dict[str, float] = {}
        stop = threading.Event()

        def watch() -> None:
            while not stop.is_set() or len(seen) < len(ended):
                pending = [g for g in list(ended) if g not in seen]
                for game_id in service.archive.games.archived(pending):
                    seen[game_id] = time.time()
                time.sleep(0.02)

        watcher = threading.Thread(target=watch)
        watcher.start()
        started = time.time()
        for n, (game_id, last) in enumerate(dealt):
            while time.time() < started + n / target:
                time.sleep(0.001)
            service.lobby.cancel(game_id, last)
            ended[game_id] = time.time()
        stop.set()
        watcher.join(timeout=120)
        lags = [seen[g] - ended[g] for g in ended if g in seen]
        service.archive.engine.dispose()
    finally:
        server.stop()
    print(f"lag: a 2-worker server finishes {rate:.1f} bot games/s; at {target:.0f} endings/s "
          f"for {seconds:g} s ({len(ended)} games, {len(lags)} archived): p50 "
          f"{percentile(lags, 0.5) * 1000:.0f} ms, p99 {percentile(lags, 0.99) * 1000:.0f} ms, "
          f"max {max(lags) * 1000:.0f} ms; goal p99 <= 2 s")  # fmt: skip


ACTIONS = """
import sys, time, tempfile, os
os.environ["STACKS_DATA_DIR"] = tempfile.mkdtemp()
from stacks_api.app import build_service
from stacks_api.runtime.config import TestConfig, settings
config = {**settings(TestConfig), "REDIS_URL": sys.argv[1], "STORE_PREFIX": sys.argv[2],
          "JOBS": "workers"}
service = build_service(config)
count, deadline = 0, time.monotonic() + float(sys.argv[3])
while time.monotonic() < deadline:
    view, _ = service.lobby.create({"variant": "sequence", "players": 2})
    tokens = [service.lobby.join(view["id"], n, None)["token"] for n in ("A", "B")]
    while time.monotonic() < deadline:
        seen = service.play.view(view["id"], None)
        if seen["status"] != "active":
            break
        seat = seen["to_move"][0]
        mine = service.play.view(view["id"], tokens[seat])
        service.play.act(view["id"], tokens[seat], mine["you"]["legal_actions"][0])
        count += 1
print(count)
"""


def actions(redis_url: str, against: str, seconds: float, rounds: int) -> None:
    here = Path(__file__).resolve().parent.parent
    rates: dict[str, list[float]] = {"this": [], against: []}
    with checkout(against) as other:
        for n in range(rounds):
            for name, tree in (("this", here), (against, other)):
                done = subprocess.run(
                    [sys.executable, "-c", ACTIONS, redis_url, f"act{n}{name}", str(seconds)],
                    cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                rates[name].append(int(done.stdout.split()[-1]) / seconds)
    mine, theirs = statistics.median(rates["this"]), statistics.median(rates[against])
    # Each round runs both trees back to back: its ratio is the paired figure (the
    # machine's speed drifts between rounds far more than within one).
    paired = sorted(m / o for m, o in zip(rates["this"], rates[against], strict=True))
    print(f"actions: {mine:6.0f}/s (a view, a seat's view and an action each), {against}: "
          f"{theirs:6.0f}/s; per-round ratios {', '.join(f'{r:.2f}' for r in paired)}, "
          f"median {statistics.median(paired):.3f}; goal >= 0.95")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games a measurement")
    parser.add_argument("--samples", type=int, default=60, help="greedy games played")
    parser.add_argument("--lag-seconds", type=float, default=20)
    parser.add_argument("--action-seconds", type=float, default=5)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", default=BASELINE)
    parser.add_argument("--only", nargs="*", default=["inserts", "size", "export", "lag",
                                                      "actions"])  # fmt: skip
    args = parser.parse_args()
    postgres, redis_server = PostgresServer(fast=False), RedisServer()
    postgres.start()
    redis_server.start()
    try:
        games = greedy_games(args.samples)
        for phase in args.only:
            url = create_database(postgres.url).replace("postgresql://", "postgresql+psycopg://")
            if phase == "inserts":
                inserts(url, games, args.games)
            elif phase == "size":
                size(url, games, args.games)
            elif phase == "export":
                export(url, games, args.games * 5)
            elif phase == "lag":
                lag(url, redis_server.url, args.lag_seconds)
            elif phase == "actions":
                actions(redis_server.url, args.against, args.action_seconds, args.rounds)
            drop_database(url.replace("+psycopg", ""))
    finally:
        redis_server.cleanup()
        postgres.cleanup()


if __name__ == "__main__":
    main()
