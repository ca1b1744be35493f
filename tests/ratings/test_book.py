"""Ratings in the archive, on SQLite and PostgreSQL: applied once with the game,
read back, ranked, and rebuilt exactly by a recompute."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import func, select, update

from stacks_api.archive import Archive, open_archive
from stacks_api.archive.models import Player, RatingChange
from stacks_api.competition.ratings import PROVISIONAL_SIGMA, Establishment
from stacks_api.model.record import Archived, ArchivedSeat

from .test_standings import document


@pytest.fixture
def archive(database_url: str) -> Iterator[Archive]:
    opened = open_archive(database_url)
    # Fresh test accounts count fully as opponents, as under the tests' configuration;
    # the farming test below asks for the server's own rule.
    opened.ratings.establishment = Establishment(0, 0)
    yield opened
    opened.engine.dispose()


def rated_game(game_id: str, ended_at: float, players: list[str], scores: list[float],
               teams: list[int] | None = None, variant: str = "sequence") -> Archived:  # fmt: skip
    teams = teams or list(range(len(players)))
    doc = document(teams, scores)
    for seat, player in zip(doc["seats"], players, strict=True):
        seat["player_id"] = player
    doc.update(id=game_id, ended_at=ended_at)
    seats = tuple(ArchivedSeat(i, p, p, None, s)
                  for i, (p, s) in enumerate(zip(players, scores, strict=True)))  # fmt: skip
    return Archived(id=game_id, variant=variant, status="finished", players=len(players),
                    rated=True, created_at=ended_at - 60, ended_at=ended_at, document=doc,
                    seats=seats)  # fmt: skip


def accounts(archive: Archive, count: int) -> list[str]:
    return [archive.accounts.create(f"P{i}", "test")[0]["id"] for i in range(count)]


def snapshot(archive: Archive) -> dict[str, Any]:
    """Every rating and every change, exactly (floats compared bit for bit)."""
    with archive.engine.connect() as connection:
        changes = [tuple(r) for r in connection.execute(
            select(RatingChange.game_id, RatingChange.subject, RatingChange.mu_before,
                   RatingChange.sigma_before, RatingChange.mu_after, RatingChange.sigma_after)
            .order_by(RatingChange.seq))]  # fmt: skip
        rows = connection.exec_driver_sql(
            "SELECT subject, variant, mu, sigma, games, last_at FROM ratings ORDER BY 1, 2"
        ).all()
    return {"changes": changes, "ratings": [tuple(r) for r in rows]}


def test_a_rated_game_archived_twice_changes_each_rating_once(archive):
    ada, bo = accounts(archive, 2)
    won = rated_game("g1", 100.0, [ada, bo], [1.0, 0.0])
    assert archive.games.put([won]) == 1
    first = archive.ratings.of(ada)["sequence"]
    assert archive.games.put([won]) == 0  # a worker's retried batch
    assert archive.ratings.of(ada)["sequence"] == first
    assert first["games"] == 1 and first["rating"] > 1500 > archive.ratings.of(bo)["sequence"][
        "rating"]  # fmt: skip
    changes = archive.ratings.changes("g1")
    assert [c["change"] > 0 for c in changes] == [True, False]
    assert archive.ratings.changes("nope") == []


def test_a_casual_game_changes_no_rating(archive):
    ada, bo = accounts(archive, 2)
    casual = rated_game("g1", 100.0, [ada, bo], [1.0, 0.0])
    archive.games.put([Archived(**{**{f: getattr(casual, f) for f in casual.__slots__},
                                   "rated": False})])  # fmt: skip
    assert archive.ratings.of(ada) == {} and archive.ratings.changes("g1") == []


def test_recompute_gives_exactly_what_the_updates_gave_over_hundreds_of_games(archive):
    people = accounts(archive, 12)
    rng = random.Random(7)
    games = []
    for n in range(300):
        size = rng.choice([2, 2, 3, 4])
        table = rng.sample(people, size)
        scores = [0.0] * size
        if rng.random() < 0.1:
            scores = [0.5] * size
        else:
            scores[rng.randrange(size)] = 1.0
        teams = [0, 1, 0, 1] if size == 4 else None
        if teams:
            winner = teams[scores.index(1.0)] if 1.0 in scores else None
            scores = [0.5 if winner is None else float(t == winner) for t in teams]
        variant = "stacks" if n % 3 == 0 and not teams else "sequence"
        games.append(rated_game(f"g{n:03}", 1000.0 + n, table, scores, teams, variant))
    for start in range(0, 300, 7):  # batches, as the archivers put them
        archive.games.put(games[start : start + 7])
    incremental = snapshot(archive)
    assert archive.ratings.recompute() == 300
    assert snapshot(archive) == incremental
    assert sum(r[4] for r in incremental["ratings"]) == sum(len(g.seats) for g in games)


def test_the_recompute_command_rebuilds_what_the_updates_gave(archive, database_url):
    ada, bo = accounts(archive, 2)
    archive.games.put([rated_game(f"g{n}", 100.0 + n, [ada, bo], [1.0, 0.0]) for n in range(5)])
    before = snapshot(archive)
    done = subprocess.run([sys.executable, "-m", "stacks_api.cli", "ratings", "recompute"],
                          env={**os.environ, "DATABASE_URL": database_url,
                               "STACKS_ESTABLISHED_OPPONENTS": "0",
                               "STACKS_ESTABLISHED_DAYS": "0"}, capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("rebuilt the ratings of 5 rated games")
    assert snapshot(archive) == before


def test_the_leaderboard_is_people_with_settled_ratings_best_first(archive):
    ada, bo, cy, *others = accounts(archive, 7)
    games = [rated_game(f"g{n}", 1000.0 + n, [ada, bo], [1.0, 0.0] if n % 4 else [0.0, 1.0])
             for n in range(40)]  # fmt: skip
    games.append(rated_game("once", 2000.0, [cy, ada], [1.0, 0.0]))
    games += [rated_game(f"a{n}", 1500.0 + n, [ada, who], [1.0, 0.0])
              for n, who in enumerate(others[:3])]  # fmt: skip
    archive.games.put(games)
    archive.ratings.clock = lambda: 2000.0
    board = archive.ratings.leaderboard("sequence", 10)
    # Bo's rating is settled, but bought from one opponent: no entry until he met five.
    assert [p["id"] for p in board] == [ada]  # cy and the others are provisional
    archive.games.put([rated_game(f"b{n}", 1600.0 + n, [bo, who], [1.0, 0.0])
                       for n, who in enumerate([cy, *others])])  # fmt: skip
    board = archive.ratings.leaderboard("sequence", 10)
    assert [p["id"] for p in board] == [ada, bo] or [p["id"] for p in board] == [bo, ada]
    assert board[0]["rating"] > board[1]["rating"]
    assert all(p["uncertainty"] < PROVISIONAL_SIGMA and not p["provisional"] for p in board)
    archive.ratings.clock = lambda: 2000.0 + 31 * 86400
    assert archive.ratings.leaderboard("sequence", 10) == []  # nobody active lately
    points = archive.ratings.history(ada, "sequence")
    assert len(points) == 44 and points[-1]["game_id"] == "once"


def test_archivers_rating_games_of_the_same_player_at_once_lose_no_update(archive):
    people = accounts(archive, 5)
    star = people[0]
    batches = [[rated_game(f"t{t}-{n}", 1000.0 + n * 4 + t, [star, people[1 + t]], [1.0, 0.0])
                for n in range(10)] for t in range(4)]  # fmt: skip
    errors: list[BaseException] = []

    def put(batch: list[Archived]) -> None:
        for one in batch:
            for _ in range(50):  # SQLite may answer busy; the archiver retries too
                try:
                    archive.games.put([one])
                    break
                except Exception as err:  # busy: kept, and the counts below fail if never put
                    errors.append(err)

    threads = [threading.Thread(target=put, args=(b,)) for b in batches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert archive.ratings.of(star)["sequence"]["games"] == 40
    with archive.engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(RatingChange)) == 80
        # Each change starts where the subject's previous one ended: none was lost.
        rows = connection.execute(select(RatingChange.mu_before, RatingChange.mu_after)
                                  .where(RatingChange.subject == star)
                                  .order_by(RatingChange.seq)).all()  # fmt: skip
    assert all(a.mu_after == b.mu_before for a, b in itertools.pairwise(rows))


def farmed(archive: Archive, farmer: str, victims: list[str], start: float) -> None:
    """Ten minutes of farming: each victim loses three rated games (the pair limit)
    to ``farmer``, one game every four seconds."""
    games = [rated_game(f"f{farmer[:6]}-{n}-{k}", start + 4.0 * (3 * n + k), [farmer, who],
                        [1.0, 0.0]) for n, who in enumerate(victims) for k in range(3)]  # fmt: skip
    for first in range(0, len(games), 7):
        archive.games.put(games[first : first + 7])


def test_fifty_fresh_accounts_farmed_for_ten_minutes_buy_no_place_and_little_rating(archive):
    """The server's rule: a fresh account's loss says almost nothing. Beside it, the
    same farming of established accounts (a month old, each having met five people)
    gains hundreds of points: the rule, not the game count, is what holds."""
    archive.ratings.establishment = Establishment()  # the server's defaults
    now = time.time()
    archive.ratings.clock = lambda: now + 3600
    farmer, *fresh = accounts(archive, 51)
    farmed(archive, farmer, fresh, now)
    gained = archive.ratings.of(farmer)["sequence"]
    assert gained["games"] == 150
    assert gained["rating"] - 1500 < 5, gained  # bounded: next to nothing
    assert gained["provisional"], "nothing learnt of the farmer"
    assert archive.ratings.leaderboard("sequence", 50) == []

    honest, *seasoned = accounts(archive, 6)
    with archive.engine.begin() as connection:  # a month old, each met five people
        connection.execute(update(Player).where(Player.id.in_(seasoned))
                           .values(created_at=now - 30 * 86400))  # fmt: skip
    met = [rated_game(f"m{a}{b}", now - 20 * 86400 + 10 * a + b, [seasoned[a], seasoned[b]],
                      [1.0, 0.0]) for a in range(5) for b in range(5) if a != b]  # fmt: skip
    archive.games.put(met)
    archive.ratings.establishment = Establishment()
    before = archive.ratings.of(honest).get("sequence", {"rating": 1500})["rating"]
    farmed(archive, honest, seasoned[:5], now)
    assert archive.ratings.of(honest)["sequence"]["rating"] - before > 300
    snapshot_now = snapshot(archive)
    archive.ratings.recompute()
    assert snapshot(archive) == snapshot_now, "the recompute weighs every game alike"
