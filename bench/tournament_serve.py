"""Tournaments run by ``stacks-api serve`` on Redis and PostgreSQL, as operators run them.

    python bench/tournament_serve.py [--entries 65] [--rounds 6] [--arena-entries 30]
                                     [--arena-minutes 5] [--kill-every 3]

Starts a redis-server, a private PostgreSQL (fsync on) and ``stacks-api serve`` with
two bot workers, then:

1. a swiss of --entries random bots over --rounds rounds, undisturbed;
2. the same again while one bot worker is SIGKILLed every --kill-every seconds
   (``serve`` restarts it), so deaths land while rounds are being made;
3. an arena of --arena-entries random bots for --arena-minutes minutes.

For each swiss it checks that no pair met twice, that each round had one bye when
the field was odd and nobody had two, that the standings' points equal each
entry's results, and that every round equals a replay of the pairing over the
results before it (what an undisturbed run pairs from the same entries and
results). For the arena it checks that nobody met the same opponent twice in a
row and that the standings equal arena points replayed from the games, and
prints how long each player waited between the end of a game (its record's
``ended_at``) and the pairing of the next (p50, p99, max).
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import itertools
import os
import random
import signal
import statistics
import threading
import time
from typing import Any

import requests

from stacks_api.competition.arena import points as arena_points
from stacks_api.competition.swiss import pair
from stacks_api.service.standings import entrants
from stacks_api.testing import PostgresServer, RedisServer, ServerProcess, create_database

API = "/api/v1"


def made_by(url: str, key: str, body: dict[str, Any], bots: int) -> str:
    """A tournament of ``bots`` random bots, starting once they are entered."""
    auth = {"Authorization": f"Bearer {key}"}
    made = requests.post(
        f"{url}{API}/tournaments",
        headers=auth,
        timeout=30,
        json={"variant": "sequence", "starts_at": time.time() + 5, **body},
    )
    made.raise_for_status()
    tournament = made.json()["id"]
    while bots:
        count = min(bots, 64)
        entered = requests.post(f"{url}{API}/tournaments/{tournament}/players", headers=auth,
                                timeout=30, json={"bot": "random", "count": count})  # fmt: skip
        entered.raise_for_status()
        bots -= count
    return str(tournament)


def finished(url: str, tournament: str, limit_s: float) -> dict[str, Any]:
    deadline = time.monotonic() + limit_s
    while True:
        answer = requests.get(f"{url}{API}/tournaments/{tournament}", timeout=30)
        found: dict[str, Any] = answer.json()
        if found["status"] == "finished":
            return found
        if time.monotonic() > deadline:
            sys.exit(f"tournament {tournament} did not finish in {limit_s:g} s")
        time.sleep(1)


def check_swiss(found: dict[str, Any]) -> list[str]:
    """What is wrong with a finished swiss (nothing: an empty list)."""
    wrong = []
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    results: dict[str, float] = {e["entry"]: 0.0 for e in found["entries"]}
    field = len(found["entries"])
    for round_ in found["pairings"]:
        given = [t["seats"][0] for t in round_["tables"] if t["game_id"] is None]
        if len(given) != field % 2:
            wrong.append(f"round {round_['round']}: {len(given)} byes for {field} entries")
        byes += given
        for table in round_["tables"]:
            for entry, scored in zip(table["seats"], table["points"], strict=True):
                results[entry] += scored
            if table["game_id"] is not None:
                pair_ = frozenset(table["seats"])
                if pair_ in met:
                    wrong.append(f"round {round_['round']}: {sorted(pair_)} met again")
                met.add(pair_)
    if len(set(byes)) != len(byes):
        wrong.append("someone had two byes")
    if {s["entry"]: s["points"] for s in found["standings"]} != results:
        wrong.append("the standings' points are not the results'")
    for number, round_ in enumerate(found["pairings"], start=1):
        earlier = [t for r in found["pairings"] if r["round"] < number for t in r["tables"]]
        made = pair(entrants({**found, "tables": earlier}), found["players"])
        replay = [*(list(t.seats) for t in made.tables), *([b] for b in made.byes)]
        if replay != [t["seats"] for t in round_["tables"]]:
            wrong.append(f"round {number} differs from a replay of the pairing")
    return wrong


def swiss(url: str, key: str, entries: int, rounds: int, label: str) -> None:
    started = time.monotonic()
    tournament = made_by(url, key, {"system": "swiss", "rounds": rounds}, entries)
    found = finished(url, tournament, 1800)
    wrong = check_swiss(found)
    winner = found["standings"][0]
    print(f"swiss, {label}: {entries} entries, {rounds} rounds in "
          f"{time.monotonic() - started:.0f} s; winner {winner['name']} with "
          f"{winner['points']:g} points (Buchholz {winner['buchholz']:g}); "
          f"{'all checks pass' if not wrong else 'WRONG: ' + '; '.join(wrong)}")  # fmt: skip


def bot_workers(server: ServerProcess) -> list[int]:
    """The pids of serve's bot workers (its other child is the web server)."""
    argv = {pid: Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            for pid in server.children()}  # fmt: skip
    return [pid for pid, words in argv.items() if words[3:4] == [b"worker"]]


def killing(server: ServerProcess, every_s: float, stop: threading.Event) -> list[int]:
    """SIGKILL one bot worker every ``every_s`` seconds until ``stop``; the pids killed."""
    killed: list[int] = []

    def run() -> None:
        chooser = random.Random(7)
        while not stop.wait(every_s):
            pids = bot_workers(server)
            if pids:
                victim = chooser.choice(pids)
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

    threading.Thread(target=run, daemon=True).start()
    return killed


def arena(url: str, key: str, entries: int, minutes: int) -> None:
    tournament = made_by(url, key, {"system": "arena", "minutes": minutes}, entries)
    found = finished(url, tournament, 60 * minutes + 600)
    tables = [t for r in found["pairings"] for t in r["tables"]]
    wrong: list[str] = []
    last: dict[str, str] = {}
    played: dict[str, list[float]] = {e["entry"]: [] for e in found["entries"]}
    ended_at: dict[str, float] = {}
    for table in tables:
        a, b = table["seats"]
        if last.get(a) == b:
            wrong.append(f"{a} met {b} twice in a row")
        last[a], last[b] = b, a
        for entry, scored in zip(table["seats"], table["points"], strict=True):
            played[entry].append(scored)
        record = requests.get(f"{url}{API}/games/{table['game_id']}/record", timeout=30).json()
        ended_at[table["game_id"]] = record["ended_at"]
    if {s["entry"]: s["points"] for s in found["standings"]} != {
        e: float(arena_points(r)[0]) for e, r in played.items()
    }:
        wrong.append("the standings differ from arena points replayed from the games")
    waits = []
    by_entry: dict[str, list[dict[str, Any]]] = {}
    for table in tables:
        for entry in table["seats"]:
            by_entry.setdefault(entry, []).append(table)
    for games in by_entry.values():
        for before, after in itertools.pairwise(games):
            waits.append(after["made_at"] - ended_at[before["game_id"]])
    waits.sort()
    p99 = waits[min(len(waits) - 1, int(0.99 * len(waits)))] if waits else 0.0
    print(f"arena: {entries} entries, {minutes} minutes, {len(tables)} games; from a game's "
          f"end to the next pairing p50 {statistics.median(waits) if waits else 0:.2f} s, "
          f"p99 {p99:.2f} s, max {max(waits, default=0):.2f} s (goal p99 <= 2 s); "
          f"{'all checks pass' if not wrong else 'WRONG: ' + '; '.join(wrong[:5])}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=65)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--arena-entries", type=int, default=30)
    parser.add_argument("--arena-minutes", type=int, default=5)
    parser.add_argument("--kill-every", type=float, default=3.0)
    args = parser.parse_args()
    postgres, redis_server = PostgresServer(fast=False), RedisServer()
    postgres.start()
    redis_server.start()
    server = ServerProcess({"REDIS_URL": redis_server.url,
                            "DATABASE_URL": create_database(postgres.url)},
                           workers=2, bot_workers=2)  # fmt: skip
    try:
        url = server.url
        key = requests.post(f"{url}{API}/players", json={"name": "Organiser"}, timeout=30)
        key.raise_for_status()
        organiser = key.json()["key"]
        swiss(url, organiser, args.entries, args.rounds, "undisturbed")
        stop = threading.Event()
        killed = killing(server, args.kill_every, stop)
        try:
            swiss(url, organiser, args.entries, args.rounds,
                  f"a bot worker SIGKILLed every {args.kill_every:g} s")  # fmt: skip
        finally:
            stop.set()
        print(f"  bot workers killed meanwhile: {len(killed)}")
        arena(url, organiser, args.arena_entries, args.arena_minutes)
    finally:
        server.stop()
        redis_server.stop()
        postgres.cleanup()


if __name__ == "__main__":
    main()
