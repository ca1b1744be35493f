"""Ratings' figures: a soak of rated games, rating updates, a recompute, pairing.

    python bench/ratings.py [--games 1000] [--search-games 60] [--seekers 200]

Starts its own PostgreSQL (fsync on) and redis-server, then:
  1. soak: ``--games`` rated 2-player Sequence games between the bot levels
     (random against easy, and ``--search-games`` of each pair with medium),
     seats swapped every other game, played, archived and rated by
     ``stacks-api serve`` (2 bot workers) on the embedded store with SQLite
     and on Redis with PostgreSQL: the levels' ratings beside their
     head-to-head results, and the games a second through the whole server;
  2. updates: games archived a second with their rating, beside the same games
     archived unrated (the anchor), one game a transaction, on each database;
  3. recompute: ``ratings recompute`` over 20,000 rated games, and per 100,000
     by linear extrapolation (each game is one update, in order);
  4. pairing: the time from a seek to its pairing (the seek's own times) for
     ``--seekers`` players who seek at once (ratings spread over 1,000 points)
     and ask every half second as the web client does, on the embedded store
     and on Redis, pairing passes as the service makes them.
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

import requests
from sqlalchemy import insert

from stacks_api.archive import Archive, open_archive
from stacks_api.archive.models import Player, PlayerRating
from stacks_api.competition.bot_matches import wilson
from stacks_api.model.record import Archived, ArchivedSeat
from stacks_api.service import GameService
from stacks_api.store import make_store
from stacks_api.testing import PostgresServer, RedisServer, ServerProcess, create_database

LEVELS = ("random", "easy", "medium")
API = "/api/v1"


def matches(games: int, search_games: int) -> list[list[str]]:
    """Each game's seats: every pair of levels, seats swapped every other game."""
    lineups = []
    for low, high in itertools.combinations(LEVELS, 2):
        count = search_games if "medium" in (low, high) else games - 2 * search_games
        lineups += [[low, high] if n % 2 == 0 else [high, low] for n in range(count)]
    return lineups


def soak(env: dict[str, str], kind: str, lineups: list[list[str]]) -> None:
    server = ServerProcess({**env, "STACKS_RATE_LIMITS": "off"}, bot_workers=2)
    url = server.url + API
    try:
        started = time.perf_counter()
        games = []
        for seats in lineups:
            body = {"variant": "sequence", "players": 2, "rated": True,
                    "seats": [{"bot": level} for level in seats]}  # fmt: skip
            games.append((requests.post(f"{url}/games", json=body, timeout=30).json()["game"]["id"],
                          seats))  # fmt: skip
        waiting = {game_id for game_id, _ in games}
        while waiting:
            time.sleep(1.0)
            for game_id in list(waiting):
                state = requests.get(f"{url}/games/{game_id}/ratings", timeout=30).json()["state"]
                if state in ("rated", "unrated"):
                    waiting.discard(game_id)
        took = time.perf_counter() - started
        wins: dict[tuple[str, str], list[float]] = {}
        for game_id, seats in games:
            result = requests.get(f"{url}/games/{game_id}", timeout=30).json()["result"]
            team = result.get("winner_team")
            pair = tuple(sorted(seats, key=LEVELS.index))
            wins.setdefault(pair, []).append(0.5 if team is None else float(seats[team] == pair[1]))  # type: ignore[arg-type]
        ladder = requests.get(f"{url}/leaderboard/bots?variant=sequence", timeout=30).json()
    finally:
        server.stop()
    print(f"\n{kind}: {len(games)} rated games played, archived and rated in {took:.0f} s "
          f"({len(games) / took:.1f} games/s)")  # fmt: skip
    for (low, high), scores in wins.items():
        won = sum(scores)
        lo, hi = wilson(round(won), len(scores))
        print(f"  {high} against {low}: {won / len(scores):.1%} of {len(scores)} "
              f"(Wilson 95% {lo:.1%}-{hi:.1%})")  # fmt: skip
    for level in ladder["levels"]:
        print(f"  {level['level']:7} rating {level['rating']:5} ± {level['uncertainty']:3} "
              f"after {level['games']} games")  # fmt: skip
    print(f"  order by rating, best first: {' > '.join(b['level'] for b in ladder['levels'])}")


def synthetic(count: int, rated: bool, prefix: str) -> list[Archived]:
    """2-player games among 100 players, results at random."""
    rng = random.Random(11)
    games = []
    for n in range(count):
        a, b = rng.sample(range(100), 2)
        names = [f"p{a}", f"p{b}"]
        scores = [1.0, 0.0] if rng.random() < 0.5 else [0.0, 1.0]
        seats = [{"seat": i, "team": i, "bot": None, "player_id": p, "left": False}
                 for i, p in enumerate(names)]  # fmt: skip
        document = {"id": f"{prefix}{n:06}", "rated": rated, "status": "finished", "seats": seats,
                    "events": [{"type": "play", "seat": i % 2} for i in range(8)],
                    "result": {"scores": scores}}  # fmt: skip
        games.append(Archived(
            id=document["id"], variant="sequence", status="finished", players=2, rated=rated,
            created_at=1e9 + n, ended_at=1e9 + n + 1, document=document,
            seats=tuple(ArchivedSeat(i, p, p, None, scores[i]) for i, p in enumerate(names)),
        ))  # fmt: skip
    return games


def updates(url: str, kind: str, count: int, recompute_games: int) -> None:
    archive = open_archive(url)
    with archive.engine.begin() as connection:  # the players the games' seats name
        connection.execute(insert(Player), [{"id": f"p{n}", "name": f"P{n}", "created_at": 0.0}
                                            for n in range(100)])  # fmt: skip
    plain, rated = synthetic(count, False, "u"), synthetic(count, True, "r")
    rates = {}
    for name, games in (("unrated", plain), ("rated", rated)):
        start = time.perf_counter()
        for game in games:
            archive.games.put([game])
        rates[name] = count / (time.perf_counter() - start)
    print(f"\n{kind}: archived one game a transaction: with its rating {rates['rated']:,.0f} "
          f"games/s, unrated {rates['unrated']:,.0f} games/s "
          f"({rates['rated'] / rates['unrated']:.2f}x)")  # fmt: skip
    more = synthetic(recompute_games, True, "m")
    for start in range(0, len(more), 500):
        archive.games.put(more[start : start + 500])
    began = time.perf_counter()
    games = archive.ratings.recompute()
    took = time.perf_counter() - began
    print(f"  recompute: {games:,} games in {took:.1f} s -> {took / games * 100_000:.0f} s "
          f"per 100,000 games (linear)")  # fmt: skip
    archive.engine.dispose()


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
    games: dict[str, tuple[str, float]] = {}
    barrier = threading.Barrier(seekers)
    stop = threading.Event()

    def seek(player: str) -> None:  # a client that asks every half second, as the web one
        barrier.wait()
        mine = service.pairing.seek(player, {"variant": "sequence", "players": 2, "wait_s": 120})
        while mine["status"] == "waiting":
            time.sleep(0.5)
            mine = service.pairing.status(player, mine["id"])
        kept = service.store.seeks.get(mine["id"])  # its own times: no polling in them
        assert kept is not None and kept.closed_at is not None  # paired: closed
        waited[player] = kept.closed_at - kept.since
        games[player] = (kept.game_id, kept.rating)

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
    tables: dict[str, list[float]] = {}
    for game_id, rating in games.values():
        tables.setdefault(game_id, []).append(rating)
    gaps = sorted(max(r) - min(r) for r in tables.values())

    def at(share: float) -> float:
        return times[min(len(times) - 1, int(len(times) * share))] * 1000

    print(f"pairing on {kind}: {seekers} seekers, seek to paired p50 {at(0.5):.0f} ms, "
          f"p90 {at(0.9):.0f} ms, p99 {at(0.99):.0f} ms; rating gap of a pair: median "
          f"{statistics.median(gaps):.0f}, largest {gaps[-1]:.0f} (the last ones left wait "
          "for their ranges to widen to each other, 10 points a second)")  # fmt: skip


class _NoJobs:
    def wake(self) -> None: ...

    def ended(self) -> None: ...

    def stop(self) -> None: ...


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=60,
                        help="games of each pair with the (slow) medium level")  # fmt: skip
    parser.add_argument("--seekers", type=int, default=200)
    parser.add_argument("--updates", type=int, default=2000)
    parser.add_argument("--recompute-games", type=int, default=20_000)
    parser.add_argument("--parts", nargs="+", default=["soak", "updates", "pairing"],
                        choices=["soak", "updates", "pairing"])  # fmt: skip
    args = parser.parse_args()
    lineups = matches(args.games, args.search_games)
    postgres, redis_server = PostgresServer(fast=False), RedisServer()
    postgres.start()
    redis_server.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            if "soak" in args.parts:
                soak({"REDIS_URL": "", "DATABASE_URL": f"sqlite:///{folder}/soak.sqlite3"},
                     "embedded store + SQLite", lineups)  # fmt: skip
                soak({"REDIS_URL": redis_server.url,
                      "DATABASE_URL": create_database(postgres.url)},
                     "Redis + PostgreSQL", lineups)  # fmt: skip
            if "updates" in args.parts:
                updates(f"sqlite:///{folder}/updates.sqlite3", "SQLite", args.updates,
                        args.recompute_games)  # fmt: skip
                updates(create_database(postgres.url), "PostgreSQL", args.updates,
                        args.recompute_games)  # fmt: skip
            if "pairing" in args.parts:
                archive = open_archive(create_database(postgres.url))
                pairing(None, "the embedded store", args.seekers, archive)
                pairing(redis_server.url, "Redis", args.seekers, archive)
    finally:
        redis_server.stop()
        postgres.stop()
        postgres.cleanup()


if __name__ == "__main__":
    main()
