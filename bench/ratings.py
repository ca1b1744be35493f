"""Ratings' figures: a ladder soak, rating updates a second, a recompute, pairing.

    python bench/ratings.py [--games 1000] [--search-games 40] [--seekers 200]

Starts its own PostgreSQL (fsync on) and redis-server, then:
  1. soak: rated 2-player Sequence games between the bot levels (random, easy,
     medium; seeds from 3,000,000, seats swapped each game), played by the
     engine here and archived one game a transaction, rated, on SQLite and on
     PostgreSQL: each level's rating beside the head-to-head results;
  2. updates: games archived a second with their rating, beside the same games
     archived unrated (the anchor), on each database;
  3. recompute: `ratings recompute` over every rated game, and per 100,000 games
     by linear extrapolation (each game is one update in order);
  4. pairing: the time from a seek to its pairing for ``--seekers`` players who
     seek at once (ratings spread over 1,000 points), on the embedded store and
     on Redis, pairing passes as the service makes them.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import itertools
import random
import statistics
import tempfile
import threading
import time
from dataclasses import replace

from sqlalchemy import insert

from stacks_api.archive import Archive, open_archive
from stacks_api.archive.models import PlayerRating
from stacks_api.record import Archived, ArchivedSeat
from stacks_api.service import GameService
from stacks_api.store import make_store
from stacks_api.testing import PostgresServer, RedisServer, create_database
from stacks_api.tournament import Standing, play_one, wilson

FIRST_SEED = 3_000_000
LEVELS = ("random", "easy", "medium")


def ladder_games(games: int, search_games: int) -> list[tuple[list[str], str | None]]:
    """(seat order, winning level) of each game: every pair of levels, seats swapped."""
    played = []
    seed = FIRST_SEED
    for low, high in itertools.combinations(LEVELS, 2):
        count = search_games if "medium" in (low, high) else games - 2 * search_games
        for n in range(count):
            names = [low, high] if n % 2 == 0 else [high, low]
            standings = {name: Standing(name) for name in names}
            played.append((names, play_one("sequence", names, seed, standings)))
            seed += 1
    return played


def archived(n: int, names: list[str], winner: str | None, rated: bool) -> Archived:
    scores = [0.5, 0.5] if winner is None else [float(name == winner) for name in names]
    seats = [{"seat": i, "team": i, "bot": name, "player_id": None, "left": False}
             for i, name in enumerate(names)]  # fmt: skip
    events = [{"type": "play", "seat": i % 2} for i in range(8)]
    document = {"id": f"g{n:06}", "rated": rated, "status": "finished", "seats": seats,
                "events": events, "result": {"scores": scores}}  # fmt: skip
    return Archived(id=document["id"], variant="sequence", status="finished", players=2,
                    rated=rated, created_at=1e9 + n, ended_at=1e9 + n + 1, document=document,
                    seats=tuple(ArchivedSeat(i, None, name, name, scores[i])
                                for i, name in enumerate(names)))  # fmt: skip


def put_each(archive: Archive, games: list[Archived]) -> float:
    """Games a second, one game a transaction."""
    start = time.perf_counter()
    for game in games:
        archive.games.put([game])
    return len(games) / (time.perf_counter() - start)


def soak(url: str, kind: str, played: list[tuple[list[str], str | None]]) -> None:
    archive = open_archive(url)
    plain = [archived(n, names, won, rated=False) for n, (names, won) in enumerate(played)]
    rated = [replace(g, id=f"r{n:06}", document={**g.document, "id": f"r{n:06}", "rated": True},
                     rated=True) for n, g in enumerate(plain)]  # fmt: skip
    unrated_rate = put_each(archive, plain)
    rated_rate = put_each(archive, rated)
    ratings = {level: archive.ratings.of(f"bot:{level}")["sequence"] for level in LEVELS}
    order = sorted(LEVELS, key=lambda level: ratings[level]["rating"])
    print(f"\n{kind}: {len(rated)} rated games")
    for level in order:
        r = ratings[level]
        print(f"  {level:7} rating {r['rating']:5} ± {r['uncertainty']:3}  games {r['games']}")
    print(f"  order by rating, lowest first: {' < '.join(order)}")
    print(f"  archived with rating {rated_rate:,.0f} games/s, unrated {unrated_rate:,.0f} games/s "
          f"({rated_rate / unrated_rate:.2f}x)")  # fmt: skip
    start = time.perf_counter()
    count = archive.ratings.recompute()
    took = time.perf_counter() - start
    print(f"  recompute: {count} games in {took:.2f} s -> {took / count * 100_000:.0f} s "
          f"per 100,000 games (linear)")  # fmt: skip
    archive.engine.dispose()


def head_to_head(played: list[tuple[list[str], str | None]]) -> None:
    print("head to head (2-player Sequence, seats swapped; Wilson 95%):")
    for low, high in itertools.combinations(LEVELS, 2):
        games = [won for names, won in played if set(names) == {low, high}]
        wins = sum(won == high for won in games) + 0.5 * sum(won is None for won in games)
        low_i, high_i = wilson(round(wins), len(games))
        print(f"  {high} beats {low}: {wins / len(games):.1%} of {len(games)} "
              f"({low_i:.1%}-{high_i:.1%})")  # fmt: skip


def pairing(store_url: str | None, kind: str, seekers: int, archive: Archive) -> None:
    store = make_store(store_url, f"bench{random.randrange(10**6)}", 2.0, ("sequence", "stacks"))
    service = GameService(store, _NoJobs(), archive=archive)
    players = [archive.accounts.create(f"S{n}", "bench")[0]["id"] for n in range(seekers)]
    rng = random.Random(5)
    with archive.engine.begin() as connection:
        connection.execute(insert(PlayerRating), [
            {"subject": p, "variant": "sequence", "mu": 1000 + rng.random() * 1000,
             "sigma": 200.0, "games": 20, "last_at": time.time()} for p in players])  # fmt: skip
    waited: dict[str, float] = {}
    barrier = threading.Barrier(seekers)
    stop = threading.Event()

    def seek(player: str) -> None:
        barrier.wait()
        began = time.perf_counter()
        mine = service.pairing.seek(player, {"variant": "sequence", "players": 2, "wait_s": 120})
        while mine["status"] == "waiting":
            time.sleep(0.05)
            mine = service.pairing.status(player, mine["id"])
        waited[player] = time.perf_counter() - began

    def background() -> None:  # the workers' pass, every second
        while not stop.wait(1.0):
            service.pairing.run(time.time())

    threads = [threading.Thread(target=seek, args=(p,)) for p in players]
    helper = threading.Thread(target=background)
    helper.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    helper.join()
    times = sorted(waited.values())
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"pairing on {kind}: {seekers} seekers, seek to paired p50 "
          f"{statistics.median(times) * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms")  # fmt: skip


class _NoJobs:
    def wake(self) -> None: ...

    def ended(self) -> None: ...

    def stop(self) -> None: ...


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=40,
                        help="games of each pair with the (slow) medium level")  # fmt: skip
    parser.add_argument("--seekers", type=int, default=200)
    args = parser.parse_args()
    started = time.perf_counter()
    played = ladder_games(args.games, args.search_games)
    print(f"played {len(played)} games in {time.perf_counter() - started:.0f} s")
    head_to_head(played)
    postgres, redis_server = PostgresServer(fast=False), RedisServer()
    postgres.start()
    redis_server.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            soak(f"sqlite:///{folder}/soak.sqlite3", "SQLite", played)
            soak(create_database(postgres.url), "PostgreSQL", played)
            archive = open_archive(create_database(postgres.url))
            pairing(None, "the embedded store", args.seekers, archive)
            pairing(redis_server.url, "Redis", args.seekers, archive)
    finally:
        redis_server.stop()
        postgres.stop()
        postgres.cleanup()


if __name__ == "__main__":
    main()
