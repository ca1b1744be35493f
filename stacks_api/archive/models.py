"""The archive's tables, as SQLAlchemy 2 typed models.

Times are epoch seconds (double precision), as everywhere else in the server. A
game's record document is stored compressed (``games.pack``): it is only ever
read whole, and compressed it is a fraction of its JSON.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Double,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Constraint names fixed from the first migration on, so later migrations (and
# SQLite's batch mode, which rebuilds tables) can name what they change.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Player(Base):
    """An account: a name and the keys that act for it (no password, no e-mail)."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[float] = mapped_column(Double)


class PlayerKey(Base):
    """One key of a player: only the SHA-256 of its secret part is kept."""

    __tablename__ = "player_keys"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    label: Mapped[str] = mapped_column(String(40))
    secret_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Double)
    revoked_at: Mapped[float | None] = mapped_column(Double, default=None)


class ArchivedGame(Base):
    """An ended game: its record document (what ``GET /games/{id}/record`` answers;
    its views and positions are rebuilt from it)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(10))  # finished or cancelled
    players: Mapped[int] = mapped_column(SmallInteger)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Double)
    ended_at: Mapped[float] = mapped_column(Double, index=True)
    document: Mapped[bytes] = mapped_column(LargeBinary)


class GameSeat(Base):
    """One seat of an archived game. The game's variant and end are copied here so
    that a player's history, with each of its filters, is read from one index."""

    __tablename__ = "game_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)
    name: Mapped[str | None] = mapped_column(String(40), default=None)
    bot: Mapped[str | None] = mapped_column(String(16), default=None)
    # 1 won, 0 lost, 0.5 a draw; None when the game was cancelled.
    score: Mapped[float | None] = mapped_column(Double, default=None)
    variant: Mapped[str] = mapped_column(String(16))
    ended_at: Mapped[float] = mapped_column(Double)

    __table_args__ = (
        # A player's history newest first, with or without a variant; the game id
        # breaks ties so the keyset cursor (ended_at, game_id) is exact.
        Index("ix_game_seats_player_history", "player_id", "ended_at", "game_id"),
        Index(
            "ix_game_seats_player_variant_history", "player_id", "variant", "ended_at", "game_id"
        ),
    )


class PlayerRating(Base):
    """A rated player's (or bot level's: ``bot:<level>``) current rating in one
    variant. ``last_at`` is when its last rated game ended (the leaderboard ranks
    only players active lately)."""

    __tablename__ = "ratings"

    subject: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(Integer)
    last_at: Mapped[float] = mapped_column(Double)

    __table_args__ = (Index("ix_ratings_variant_mu", "variant", "mu"),)


class RatingChange(Base):
    """What one rated game did to one subject's rating. ``seq`` is the order games
    were rated in (``ratings recompute`` replays them in it); ``side`` and ``rank``
    are the game's standings, kept so a recompute needs no record unpacked."""

    __tablename__ = "rating_changes"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(SmallInteger)
    subject: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(String(16))
    side: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(SmallInteger)
    mu_before: Mapped[float] = mapped_column(Double)
    sigma_before: Mapped[float] = mapped_column(Double)
    mu_after: Mapped[float] = mapped_column(Double)
    sigma_after: Mapped[float] = mapped_column(Double)
    ended_at: Mapped[float] = mapped_column(Double)

    __table_args__ = (
        Index("ix_rating_changes_game_id_subject", "game_id", "subject", unique=True),
        # A player's rating over time, for the chart on the player page.
        Index("ix_rating_changes_subject_variant", "subject", "variant", "seq"),
    )


class GameAnalysis(Base):
    """The analysis of an ended game (``service.analysis``), kept beside its record:
    packed like it."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    document: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[float] = mapped_column(Double)
