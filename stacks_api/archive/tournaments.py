"""Tournaments in the archive: the events, their entries and their rounds' tables.

Every change that more than one worker might make at once is a compare-and-set
in the database: a tournament starts once (``upcoming`` to ``running``), a round
is made once (``round`` from n - 1 to n, with its tables, in one transaction),
a table's result is written once (where it has none) and a tournament finishes
once.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, literal, select, update
from sqlalchemy.exc import IntegrityError

from ..model import tournaments as model
from ..model.record import JSON
from .errors import connected
from .models import Player, Tournament, TournamentEntry, TournamentTable
from .names import DELETED_NAME

LISTED = 50  # tournaments a list answers, of each status


class TournamentBook:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def create(self, tournament: model.Tournament, most_upcoming: int) -> bool:
        """Keep a new tournament, upcoming, unless its creator has ``most_upcoming``
        upcoming ones already (False: nothing was kept)."""
        row = {**tournament.columns(), "status": "upcoming", "round": 0,
               "created_at": self.clock(),
               "seeds": json.dumps(tournament.seeds) if tournament.seeds else None}  # fmt: skip
        with connected(self.engine, write=True) as connection:
            # Lock the creator's row (PostgreSQL) so that concurrent creations count right.
            locking = select(Player.id).where(Player.id == tournament.creator)
            if self.engine.dialect.name == "postgresql":
                locking = locking.with_for_update()
            connection.execute(locking)
            upcoming = connection.scalar(
                select(func.count()).where(Tournament.creator == tournament.creator,
                                           Tournament.status == "upcoming")
            )  # fmt: skip
            if (upcoming or 0) >= most_upcoming:
                return False
            connection.execute(insert(Tournament), [row])
        return True

    def get(self, tournament_id: str) -> model.Tournament | None:
        """The tournament with its entries and every table so far, or None."""
        with connected(self.engine) as connection:
            found = connection.execute(
                select(Tournament).where(Tournament.id == tournament_id)
            ).first()
            if found is None:
                return None
            entries = connection.execute(
                select(TournamentEntry)
                .where(TournamentEntry.tournament_id == tournament_id)
                .order_by(TournamentEntry.joined_at, TournamentEntry.entry)
            ).all()
            tables = connection.execute(
                select(TournamentTable)
                .where(TournamentTable.tournament_id == tournament_id)
                .order_by(TournamentTable.round, TournamentTable.board)
            ).all()
        return replace(_tournament(found), entries=tuple(map(_entry, entries)),
                       tables=tuple(map(_table, tables)))  # fmt: skip

    def listed(self) -> list[JSON]:
        """The first page of upcoming ones (most entrants first), running ones soonest
        started first, then the latest finished."""
        found = self.page("upcoming", None, LISTED)[0]
        for status in ("running", "finished"):
            found += self.page(status, None, LISTED)[0]
        return found

    def page(
        self, status: str, after: tuple[float, float, str] | None, limit: int
    ) -> tuple[list[JSON], tuple[float, float, str] | None]:
        """A page of the tournaments in ``status`` and where the next one starts.
        Upcoming ones: most entrants first, then soonest; running ones: soonest
        started first; finished ones: latest ended first. ``after`` is the last
        row's sort key, (entrants or 0, time, id), as given with the page before."""
        entrants = (
            select(func.count()).where(TournamentEntry.tournament_id == Tournament.id,
                                       TournamentEntry.withdrawn_at.is_(None))
            .correlate(Tournament).scalar_subquery()
        )  # fmt: skip
        # Each listing reads ascending on (first, second, id).
        first: Any = -entrants if status == "upcoming" else literal(0)
        second: Any = -Tournament.ended_at if status == "finished" else Tournament.starts_at
        query = select(Tournament, entrants.label("entrants")).where(Tournament.status == status)
        if after is not None:
            a_first, a_second, a_id = after
            query = query.where(
                (first > a_first)
                | ((first == a_first) & (second > a_second))
                | ((first == a_first) & (second == a_second) & (Tournament.id > a_id))
            )
        query = query.order_by(first, second, Tournament.id).limit(limit + 1)
        with connected(self.engine) as connection:
            rows = connection.execute(query).all()
        found = [{**_tournament(row).columns(), "entrants": int(row.entrants)}
                 for row in rows[:limit]]  # fmt: skip
        if len(rows) <= limit:
            return found, None
        last = found[-1]
        key_first = -last["entrants"] if status == "upcoming" else 0
        key_second = -last["ended_at"] if status == "finished" else last["starts_at"]
        return found, (float(key_first), float(key_second), last["id"])

    def enter(self, tournament_id: str, entry: model.Entry, limit: int) -> str | None:
        """Add an entry while the tournament has room; a withdrawn entry comes back.
        None when done, else why not: ``full``, ``entered`` (it is in already)."""
        with connected(self.engine, write=True) as connection:
            # Lock the tournament's row (PostgreSQL) so concurrent entries count right.
            locking = select(Tournament.id).where(Tournament.id == tournament_id)
            if self.engine.dialect.name == "postgresql":
                locking = locking.with_for_update()
            connection.execute(locking)
            current = connection.execute(
                select(TournamentEntry.entry, TournamentEntry.withdrawn_at).where(
                    TournamentEntry.tournament_id == tournament_id
                )
            ).all()
            active = {row.entry for row in current if row.withdrawn_at is None}
            if entry.entry in active:
                return "entered"
            if len(active) >= limit:
                return "full"
            key = (TournamentEntry.tournament_id == tournament_id) & (
                TournamentEntry.entry == entry.entry
            )
            if any(row.entry == entry.entry for row in current):
                connection.execute(
                    update(TournamentEntry).where(key)
                    .values(withdrawn_at=None, rating=entry.rating, name=entry.name,
                            entropy=entry.entropy)
                )  # fmt: skip
            else:
                row = {**entry.to_json(), "tournament_id": tournament_id,
                       "joined_at": self.clock(), "withdrawn_at": None}  # fmt: skip
                connection.execute(insert(TournamentEntry), [row])
        return None

    def withdraw(self, tournament_id: str, entry: str) -> bool:
        """Withdraw an entry from the rounds not yet made; False if it was not in."""
        with connected(self.engine, write=True) as connection:
            done = connection.execute(
                update(TournamentEntry)
                .where(TournamentEntry.tournament_id == tournament_id)
                .where(TournamentEntry.entry == entry)
                .where(TournamentEntry.withdrawn_at.is_(None))
                .values(withdrawn_at=self.clock())
            )
        return bool(done.rowcount)

    def of_player(self, player_id: str) -> list[model.Tournament]:
        """The tournaments the player is entered in (withdrawn or not), newest first."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Tournament)
                .join(TournamentEntry, TournamentEntry.tournament_id == Tournament.id)
                .where(TournamentEntry.player_id == player_id)
                .order_by(Tournament.starts_at.desc())
                .limit(LISTED)
            ).all()
        return [_tournament(row) for row in rows]

    def live(self, now: float) -> list[str]:
        """The tournaments a worker has something to do for: running ones, and
        upcoming ones whose start has come (never a finished or cancelled one)."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Tournament.id).where(
                    (Tournament.status == "running")
                    | ((Tournament.status == "upcoming") & (Tournament.starts_at <= now))
                )
            ).all()
        return [row.id for row in rows]

    def start_now(self, tournament_id: str, now: float) -> bool:
        """Bring an upcoming tournament's start to ``now`` (False if it is upcoming no
        more); a worker starts it at its next step."""
        with connected(self.engine, write=True) as connection:
            done = connection.execute(
                update(Tournament)
                .where(Tournament.id == tournament_id, Tournament.status == "upcoming")
                .values(starts_at=now)
            )
        return bool(done.rowcount)

    def advance(
        self, tournament_id: str, status: str, to: str, ended_at: float | None,
        at_round: int | None = None,
    ) -> bool:  # fmt: skip
        """Move the tournament from ``status`` (and, if given, round ``at_round``:
        a round another worker made meanwhile keeps it going) to ``to``; False if it
        was not there."""
        values: dict[str, Any] = {"status": to}
        if ended_at is not None:
            values["ended_at"] = ended_at
        where = [Tournament.id == tournament_id, Tournament.status == status]
        if at_round is not None:
            where.append(Tournament.round == at_round)
        with connected(self.engine, write=True) as connection:
            done = connection.execute(update(Tournament).where(*where).values(**values))
        return bool(done.rowcount)

    def add_round(self, tournament_id: str, number: int, tables: list[model.Board]) -> bool:
        """Make round ``number`` with its ``tables`` (a bye's scored already), unless
        another worker made it first or it has finished meanwhile (then False, and
        nothing is written)."""
        now = self.clock()
        rows = [_table_row(tournament_id, table, now) for table in tables]
        try:
            with connected(self.engine, write=True) as connection:
                moved = connection.execute(
                    update(Tournament).where(Tournament.id == tournament_id)
                    .where(Tournament.round == number - 1, Tournament.status == "running")
                    .values(round=number)
                )  # fmt: skip
                if not moved.rowcount:
                    return False
                if rows:
                    connection.execute(insert(TournamentTable), rows)
        except IntegrityError:  # the same round's tables, made by another worker
            return False
        return True

    def score(
        self, tournament_id: str, number: int, board: int, points: list[float],
        detail: JSON | None = None,
    ) -> bool:  # fmt: skip
        """Write a table's result (and a duplicate table's comparison) once; False if
        it had one."""
        with connected(self.engine, write=True) as connection:
            done = connection.execute(
                update(TournamentTable)
                .where(TournamentTable.tournament_id == tournament_id)
                .where(TournamentTable.round == number)
                .where(TournamentTable.board == board)
                .where(TournamentTable.points.is_(None))
                .values(
                    points=json.dumps(points),
                    ended_at=self.clock(),
                    detail=None if detail is None else json.dumps(detail),
                )
            )
        return bool(done.rowcount)


def take_out(connection: Connection, player_id: str, now: float, forget: bool) -> None:
    """Take a closed or deleted account out of every tournament, in the caller's
    transaction: its entries in upcoming ones are gone, and in running ones
    withdrawn (never paired again; its results so far still count for the
    others). ``forget`` (a deleted account): in running and finished ones, each
    entry keeps its results under a new id, without the player's id or name."""
    upcoming = select(Tournament.id).where(Tournament.status == "upcoming")
    mine = TournamentEntry.player_id == player_id
    connection.execute(
        delete(TournamentEntry).where(mine, TournamentEntry.tournament_id.in_(upcoming))
    )
    connection.execute(
        update(TournamentEntry).where(mine, TournamentEntry.withdrawn_at.is_(None))
        .values(withdrawn_at=now)
    )  # fmt: skip
    if not forget:
        return
    entries = connection.execute(
        select(TournamentEntry.tournament_id, TournamentEntry.entry).where(mine)
    ).all()
    for tournament_id, entry in entries:
        anonymous = f"gone:{secrets.token_hex(6)}"
        connection.execute(
            update(TournamentEntry)
            .where(TournamentEntry.tournament_id == tournament_id, TournamentEntry.entry == entry)
            .values(entry=anonymous, player_id=None, name=DELETED_NAME)
        )  # fmt: skip
        tables = connection.execute(
            select(TournamentTable.round, TournamentTable.board, TournamentTable.seats)
            .where(TournamentTable.tournament_id == tournament_id)
        ).all()  # fmt: skip
        for number, board, seats in tables:
            listed = json.loads(seats)
            if entry in listed:
                renamed = [anonymous if seat == entry else seat for seat in listed]
                connection.execute(
                    update(TournamentTable)
                    .where(TournamentTable.tournament_id == tournament_id,
                           TournamentTable.round == number, TournamentTable.board == board)
                    .values(seats=json.dumps(renamed))
                )  # fmt: skip


def _table_row(tournament_id: str, table: model.Board, now: float) -> JSON:
    scored = table.points is not None  # a bye is scored when it is made
    return {
        "tournament_id": tournament_id, "round": table.round, "board": table.board,
        "seats": json.dumps(table.seats), "game_id": table.game_id,
        "server_seed": table.server_seed, "made_at": now,
        "points": json.dumps(table.points) if scored else None,
        "ended_at": now if scored else None, "detail": None,
    }  # fmt: skip


def _tournament(t: Any) -> model.Tournament:
    return model.Tournament(
        id=t.id, name=t.name, creator=t.creator, variant=t.variant, system=t.system,
        rounds=t.rounds, minutes=t.minutes, players=t.players, rated=t.rated,
        turn_seconds=t.turn_seconds, days=t.days, max_players=t.max_players,
        starts_at=t.starts_at, status=t.status, round=t.round, created_at=t.created_at,
        ended_at=t.ended_at, seeds=tuple(json.loads(t.seeds)) if t.seeds else (),
    )  # fmt: skip


def _entry(e: Any) -> model.Entry:
    return model.Entry(entry=e.entry, player_id=e.player_id, bot=e.bot, name=e.name,
                       rating=e.rating, joined_at=e.joined_at,
                       withdrawn_at=e.withdrawn_at, entropy=e.entropy)  # fmt: skip


def _table(t: Any) -> model.Board:
    return model.Board(
        round=t.round, board=t.board, seats=tuple(json.loads(t.seats)), game_id=t.game_id,
        server_seed=t.server_seed, made_at=t.made_at, ended_at=t.ended_at,
        points=None if t.points is None else tuple(json.loads(t.points)),
        detail=None if t.detail is None else json.loads(t.detail),
    )  # fmt: skip
