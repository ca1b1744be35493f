"""One contract for the archive on both databases: SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from stacks_api.archive import Archive, is_current, open_archive, upgrade
from stacks_api.archive.models import ArchivedGame, GameSeat
from stacks_api.model.record import Archived, ArchivedSeat, HistoryQuery
from stacks_api.model.refusals import Refusal
from stacks_api.model.tournaments import Board, Entry, Tournament


@pytest.fixture
def archive(database_url: str) -> Iterator[Archive]:
    opened = open_archive(database_url)
    yield opened
    opened.engine.dispose()


def game(game_id: str, ended_at: float, seats: list[tuple[str | None, float | None]],
         variant: str = "sequence") -> Archived:  # fmt: skip
    """An ended game whose seats are (player id, score)."""
    return Archived(
        id=game_id, variant=variant, status="finished" if seats[0][1] is not None else "cancelled",
        players=len(seats), rated=False, created_at=ended_at - 60, ended_at=ended_at,
        document={"id": game_id, "ended_at": ended_at, "events": [{"version": 1}]},
        seats=tuple(ArchivedSeat(i, p, f"P{i}", None if p else "easy", score)
                    for i, (p, score) in enumerate(seats)),
    )  # fmt: skip


def players(archive: Archive, count: int) -> list[str]:
    return [archive.accounts.create(f"P{i}", "test")[0]["id"] for i in range(count)]


def test_an_empty_database_is_brought_to_the_newest_migration_and_again_is_a_no_op(archive):
    assert is_current(archive.engine)
    upgrade(archive.engine)
    assert is_current(archive.engine)


def test_a_game_archived_twice_is_kept_once(archive):
    ada, bo = players(archive, 2)
    first = game("g1", 100.0, [(ada, 1.0), (bo, 0.0)])
    assert archive.games.put([first]) == 1
    assert archive.games.put([first, game("g2", 101.0, [(ada, 0.5), (None, 0.5)])]) == 1
    with archive.engine.connect() as connection:
        assert connection.scalar(select(func.count()).select_from(ArchivedGame)) == 2
        assert connection.scalar(select(func.count()).select_from(GameSeat)) == 4
    assert archive.games.archived(["g1", "g2", "g3"]) == {"g1", "g2"}
    assert archive.games.document("g1") == first.document
    assert archive.games.document("nope") is None


def test_history_is_newest_first_and_filters_by_variant_time_result_and_opponent(archive):
    ada, bo, cy = players(archive, 3)
    archive.games.put([
        game("a", 10.0, [(ada, 1.0), (bo, 0.0)]),
        game("b", 20.0, [(ada, 0.0), (cy, 1.0)], variant="stacks"),
        game("c", 30.0, [(bo, 0.5), (ada, 0.5)]),
        game("d", 40.0, [(bo, 1.0), (cy, 0.0)]),
    ])  # fmt: skip

    def ids(**filters: object) -> list[str]:
        return [g["id"] for g in archive.games.history(HistoryQuery(ada, **filters), 10)]

    assert ids() == ["c", "b", "a"]
    assert ids(variant="stacks") == ["b"]
    assert ids(since=20.0) == ["c", "b"]
    assert ids(until=20.0) == ["a"]
    assert ids(result="won") == ["a"]
    assert ids(result="lost") == ["b"]
    assert ids(result="drawn") == ["c"]
    assert ids(opponent=bo) == ["c", "a"]
    assert ids(opponent=cy) == ["b"]
    summary = archive.games.history(HistoryQuery(ada), 1)[0]
    assert summary["seats"][1] == {"seat": 1, "name": "P1", "bot": None, "player_id": ada,
                                   "score": 0.5}  # fmt: skip


def test_keyset_pages_cover_every_game_once_even_when_games_end_at_the_same_time(archive):
    (ada,) = players(archive, 1)
    games = [game(f"g{i:02d}", float(i // 3), [(ada, 1.0), (None, 0.0)]) for i in range(20)]
    archive.games.put(games)
    seen, after = [], None
    while True:
        page = archive.games.history(HistoryQuery(ada, after=after), 6)
        seen += [g["id"] for g in page]
        if len(page) < 6:
            break
        after = (page[-1]["ended_at"], page[-1]["id"])
    expected = [g.id for g in sorted(games, key=lambda g: (g.ended_at, g.id), reverse=True)]
    assert seen == expected
    exported = [d["id"] for d in archive.games.export(HistoryQuery(ada), batch=7)]
    assert exported == expected


def test_a_key_acts_for_its_player_until_it_is_revoked(archive):
    player, key = archive.accounts.create("Ada", "laptop")
    assert key.startswith("stk_")
    assert archive.accounts.player_of(key) == player["id"]
    assert archive.accounts.player_of(key[:-1] + ("A" if key[-1] != "A" else "B")) is None
    assert archive.accounts.player_of("stk_nothing_here") is None
    entry, second = archive.accounts.add_key(player["id"], "phone")
    assert [k["label"] for k in archive.accounts.keys(player["id"])] == ["laptop", "phone"]
    assert archive.accounts.revoke(player["id"], entry["id"])
    assert archive.accounts.player_of(second) is None
    assert not archive.accounts.revoke(player["id"], entry["id"])  # already revoked
    assert [k["label"] for k in archive.accounts.keys(player["id"])] == ["laptop"]
    assert archive.accounts.player_of(key) == player["id"]


def test_only_the_hash_of_a_keys_secret_is_stored(archive):
    _, key = archive.accounts.create("Ada", "laptop")
    secret = key.split("_", 2)[2]
    with archive.engine.connect() as connection:
        stored = connection.exec_driver_sql("SELECT secret_hash FROM player_keys").scalar()
    assert stored is not None and secret not in stored and len(stored) == 64


def test_a_player_holds_a_bounded_number_of_keys(archive):
    player, _ = archive.accounts.create("Ada", "first")
    for n in range(19):
        archive.accounts.add_key(player["id"], f"k{n}")
    with pytest.raises(Refusal) as refused:
        archive.accounts.add_key(player["id"], "one too many")
    assert refused.value.code == "too_many_keys"


def test_the_db_upgrade_command_brings_an_empty_database_up_to_date(database_url):
    import os
    import subprocess
    import sys

    from stacks_api.archive import connect

    env = {**os.environ, "DATABASE_URL": database_url}
    done = subprocess.run([sys.executable, "-m", "stacks_api.cli", "db", "upgrade"], env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("the archive is up to date: ")
    engine = connect(database_url)
    assert is_current(engine)
    engine.dispose()


def _tournament(archive: Archive, creator: str, entries: list[str]) -> str:
    made = Tournament(id=secrets.token_hex(6), name="T", creator=creator, variant="sequence",
                      system="swiss", rounds=3, minutes=None, players=2, rated=False,
                      turn_seconds=60.0, days=None, max_players=100, starts_at=0.0)  # fmt: skip
    assert archive.tournaments.create(made, most_upcoming=5)
    for player in entries:
        entry = Entry(entry=player, player_id=player, bot=None, name=f"N{player[:4]}",
                      rating=1500.0)  # fmt: skip
        assert archive.tournaments.enter(made.id, entry, 100) is None
    return made.id


def test_a_deleted_account_leaves_every_tournament_and_keeps_its_results_without_its_name(
    archive,
):
    ada, bo, cy = players(archive, 3)
    upcoming = _tournament(archive, bo, [ada, bo])
    running = _tournament(archive, cy, [ada, bo, cy])
    assert archive.tournaments.advance(running, "upcoming", "running", None)
    tables = [Board(round=1, board=1, seats=(ada, bo), game_id="g1", server_seed="s"),
              Board(round=1, board=2, seats=(cy,), game_id=None, server_seed=None,
                    points=(1.0,))]  # fmt: skip
    assert archive.tournaments.add_round(running, 1, tables)
    assert archive.tournaments.score(running, 1, 1, [1.0, 0.0])

    archive.moderation.delete(ada)

    assert [e.entry for e in archive.tournaments.get(upcoming).entries] == [bo]
    kept = archive.tournaments.get(running)
    gone = next(e for e in kept.entries if e.entry not in (bo, cy))
    assert gone.player_id is None and gone.name == "deleted player"
    assert gone.withdrawn_at is not None, "never paired again"
    assert kept.tables[0].seats == (gone.entry, bo) and kept.tables[0].points == (1.0, 0.0)
    assert kept.tables[1].bye and kept.tables[1].points == (1.0,)
    assert ada not in str(kept)


def test_a_closed_account_is_withdrawn_from_tournaments_and_keeps_its_name(archive):
    ada, bo = players(archive, 2)
    upcoming = _tournament(archive, bo, [ada, bo])
    running = _tournament(archive, bo, [ada, bo])
    assert archive.tournaments.advance(running, "upcoming", "running", None)
    assert archive.moderation.close(ada, "abuse")
    assert [e.entry for e in archive.tournaments.get(upcoming).entries] == [bo]
    entries = {e.entry: e for e in archive.tournaments.get(running).entries}
    assert entries[ada].withdrawn_at is not None and entries[ada].name == f"N{ada[:4]}"
