"""The archive: every ended game and every player account, in a relational
database (PostgreSQL when ``DATABASE_URL`` names one, else an SQLite file).

Redis (or the embedded store) stays the live store. The archive is written only
by the archiving workers, from the outbox the live store fills in the same
atomic write that ends a game (docs/operations.md); requests read it (an ended
game Redis has let go, a player's history) and the accounts live in it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import Engine, text

from ..competition.ratings import Starts, fresh
from .accounts import Accounts
from .analyses import AnalysisArchive
from .db import connect, database_url, is_current, upgrade
from .errors import ArchiveUnavailable, connected
from .games import GameArchive
from .grants import GrantBook
from .moderation import Moderation
from .pushes import PushBook
from .ratings import RatingBook
from .tournaments import TournamentBook
from .vacations import Vacations
from .webhooks import WebhookBook


class Archive:
    """The archive's parts over one engine: games, accounts, ratings, analyses,
    moderation, webhooks, pushes, tournaments, vacation banks and grants."""

    def __init__(
        self, engine: Engine, clock: Callable[[], float] = time.time, starts: Starts = fresh
    ) -> None:
        self.engine = engine
        self.ratings = RatingBook(engine, clock, starts)
        self.analyses = AnalysisArchive(engine, clock)
        self.games = GameArchive(engine, self.ratings)
        self.accounts = Accounts(engine, clock)
        self.moderation = Moderation(engine, clock)
        self.webhooks = WebhookBook(engine, clock)
        self.tournaments = TournamentBook(engine, clock)
        self.vacations = Vacations(engine, clock)
        self.pushes = PushBook(engine, clock)
        self.grants = GrantBook(engine, clock)

    @property
    def kind(self) -> str:
        """``postgresql`` or ``sqlite``."""
        return self.engine.dialect.name

    def reachable(self) -> bool:
        """Whether the database answers now (a health check's one round trip)."""
        try:
            with connected(self.engine) as connection:
                connection.execute(text("SELECT 1"))
        except ArchiveUnavailable:
            return False
        return True


def open_archive(
    url: str | None, timeout_s: float = 5.0, migrate: bool = True, starts: Starts = fresh
) -> Archive:
    """The archive at ``url`` (None: the SQLite file in the data directory), brought
    up to date first unless ``migrate`` is False; ``starts`` says where a rating
    begins."""
    engine = connect(url, timeout_s)
    if migrate:
        upgrade(engine)
    return Archive(engine, starts=starts)


__all__ = [
    "Accounts",
    "Archive",
    "ArchiveUnavailable",
    "GameArchive",
    "RatingBook",
    "connect",
    "database_url",
    "is_current",
    "open_archive",
    "upgrade",
]
