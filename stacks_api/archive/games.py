"""Ended games in the archive: written once (idempotently, by the archiving
workers), read by id, and listed per player with keyset paging."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any, cast

from sqlalchemy import Engine, Select, and_, exists, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import aliased

from ..competition.ratings import standings
from ..model.record import JSON, Archived, HistoryQuery
from .errors import connected
from .models import ArchivedGame, GameSeat
from .names import settle_names
from .packing import pack, unpack
from .ratings import RatedGame, RatingBook

RESULTS = {"won": 1.0, "lost": 0.0, "drawn": 0.5}


class GameArchive:
    def __init__(self, engine: Engine, ratings: RatingBook | None = None) -> None:
        self.engine = engine
        self.ratings = ratings or RatingBook(engine)

    def put(self, games: Iterable[Archived]) -> int:
        """Insert games not archived yet, in one transaction, and rate the new rated
        ones in it; how many were new. A game archived before (a retried batch) is
        left as it is, and rated no more."""
        games = list(games)
        if not games:
            return 0
        rows = [_game_row(g) for g in games]
        seats = [_seat_row(g, s) for g in games for s in g.seats]
        with connected(self.engine, write=True) as connection:
            # ON CONFLICT DO NOTHING: a game archived before (by a worker that died
            # before it could say so) is left as it is, and its seats are too.
            statement = insert_ignoring(self.engine, ArchivedGame).returning(ArchivedGame.id)
            fresh = set(connection.scalars(statement, rows[0] if len(rows) == 1 else rows))
            new_seats = [s for s in seats if s["game_id"] in fresh]
            seats_insert = insert_ignoring(self.engine, GameSeat)
            if new_seats and len(rows) == 1:  # one game: one multi-row INSERT, one round trip
                connection.execute(seats_insert.values(new_seats))
            elif new_seats:  # a batch: as many rows a statement as the driver takes
                connection.execute(seats_insert, new_seats)
            linked = {s["player_id"] for s in new_seats if s["player_id"] is not None}
            if linked:
                began = {g.id: g.created_at for g in games if g.id in fresh}
                settle_names(connection, began, linked)
            rated = [RatedGame(g.id, g.variant, g.ended_at, standings(g.document))
                     for g in games if g.rated and g.id in fresh]  # fmt: skip
            if rated:
                self.ratings.apply(connection, rated)
        return len(fresh)

    def archived(self, game_ids: list[str]) -> set[str]:
        """Which of ``game_ids`` are in the archive."""
        if not game_ids:
            return set()
        with connected(self.engine) as connection:
            query = select(ArchivedGame.id).where(ArchivedGame.id.in_(game_ids))
            return set(connection.scalars(query))

    def document(self, game_id: str) -> JSON | None:
        """The game's record document, or None when it is not archived."""
        with connected(self.engine) as connection:
            blob = connection.scalar(
                select(ArchivedGame.document).where(ArchivedGame.id == game_id)
            )
        return None if blob is None else unpack(blob)

    def history(self, query: HistoryQuery, limit: int) -> list[JSON]:
        """A page of the player's ended games, newest first, each as a summary: the
        game's id, variant, status, times and seats (with their scores)."""
        with connected(self.engine) as connection:
            games = connection.execute(_history(query, ArchivedGame).limit(limit)).all()
            ids = [game.id for game in games]
            seats = connection.execute(
                select(GameSeat).where(GameSeat.game_id.in_(ids)).order_by(GameSeat.seat)
            ).all()
        by_game: dict[str, list[JSON]] = {game_id: [] for game_id in ids}
        for seat in seats:
            by_game[seat.game_id].append(
                {
                    "seat": seat.seat,
                    "name": seat.name,
                    "bot": seat.bot,
                    "player_id": seat.player_id,
                    "score": seat.score,
                }
            )
        return [
            {
                "id": g.id,
                "variant": g.variant,
                "status": g.status,
                "players": g.players,
                "rated": g.rated,
                "created_at": g.created_at,
                "ended_at": g.ended_at,
                "seats": by_game[g.id],
            }
            for g in games
        ]

    def export(self, query: HistoryQuery, batch: int = 200) -> Iterator[JSON]:
        """Every game of the history as its record document, newest first, read a
        batch at a time (a keyset per batch: no transaction stays open while the
        client reads)."""
        while True:
            with connected(self.engine) as connection:
                rows = connection.execute(
                    _history(
                        query, ArchivedGame.document, ArchivedGame.ended_at, ArchivedGame.id
                    ).limit(batch)
                ).all()
            for row in rows:
                yield unpack(row.document)
            if len(rows) < batch:
                return
            query = replace(query, after=(rows[-1].ended_at, rows[-1].id))


def _history(query: HistoryQuery, *columns: Any) -> Select[Any]:
    """The player's games matching ``query``, newest first (by the seat index)."""
    mine = aliased(GameSeat)
    statement = (
        select(*columns)
        .join(mine, mine.game_id == ArchivedGame.id)
        .where(mine.player_id == query.player_id)
        .order_by(mine.ended_at.desc(), mine.game_id.desc())
    )
    if query.variant is not None:
        statement = statement.where(mine.variant == query.variant)
    if query.since is not None:
        statement = statement.where(mine.ended_at >= query.since)
    if query.until is not None:
        statement = statement.where(mine.ended_at < query.until)
    if query.result is not None:
        statement = statement.where(mine.score == RESULTS[query.result])
    if query.opponent is not None:
        other = aliased(GameSeat)
        statement = statement.where(
            exists().where(
                and_(
                    other.game_id == mine.game_id,
                    other.seat != mine.seat,
                    other.player_id == query.opponent,
                )
            )
        )
    if query.after is not None:
        at, game_id = query.after
        statement = statement.where(
            or_(mine.ended_at < at, and_(mine.ended_at == at, mine.game_id < game_id))
        )
    return statement


def insert_ignoring(engine: Engine, table: Any) -> Any:
    """``INSERT ... ON CONFLICT DO NOTHING`` in the engine's dialect."""
    dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
    return cast(Any, dialect).insert(table).on_conflict_do_nothing()


def _game_row(game: Archived) -> dict[str, Any]:
    return {
        "id": game.id,
        "variant": game.variant,
        "status": game.status,
        "players": game.players,
        "rated": game.rated,
        "created_at": game.created_at,
        "ended_at": game.ended_at,
        "document": pack(game.document),
    }


def _seat_row(game: Archived, seat: Any) -> dict[str, Any]:
    return {
        "game_id": game.id,
        "seat": seat.seat,
        "player_id": seat.player_id,
        "name": seat.name,
        "bot": seat.bot,
        "score": seat.score,
        "variant": game.variant,
        "ended_at": game.ended_at,
    }
