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
    Text,
    false,
    true,
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
    """An account: a name and the keys that act for it (no password, no e-mail).

    A closed account (by an operator) or a deleted one (by its player) keeps its
    row, so its games still name the seat: ``closed_at`` is set for both, and a
    deleted one has ``deleted_at`` and its name replaced."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[float] = mapped_column(Double)
    closed_at: Mapped[float | None] = mapped_column(Double, default=None)
    closed_reason: Mapped[str | None] = mapped_column(String(200), default=None)
    deleted_at: Mapped[float | None] = mapped_column(Double, default=None)
    # When an operator last renamed it: games that began before take the new name
    # when they are archived.
    renamed_at: Mapped[float | None] = mapped_column(Double, default=None)
    # False: the player takes challenges from nobody (a setting of their own).
    accepts_challenges: Mapped[bool] = mapped_column(Boolean, default=True,
                                                     server_default=true())  # fmt: skip
    # The vacation bank of days games (``model.pace``): what it held at
    # ``vacation_at`` (None: the account's creation), earning on since.
    vacation_days: Mapped[float] = mapped_column(Double, default=10.0, server_default="10")
    vacation_at: Mapped[float | None] = mapped_column(Double, default=None)
    # A bot account (for good): it plays through the API, never pairs with people.
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class VacationDay(Base):
    """A day taken from a player's bank when a days game's deadline passed, once per
    game, seat and deadline (whichever worker takes it, however often it tries);
    ``days_left`` is the bank after it, None when the bank was empty (the side lost)."""

    __tablename__ = "vacation_days"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    deadline: Mapped[float] = mapped_column(Double, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)
    days_left: Mapped[float | None] = mapped_column(Double, default=None)
    at: Mapped[float] = mapped_column(Double)


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


class Report(Base):
    """A player's report of another (``game_id``: where it happened, if said), kept
    for the operators (``stacks-api admin reports``) until resolved."""

    __tablename__ = "reports"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    game_id: Mapped[str | None] = mapped_column(String(32), default=None)
    reason: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[float] = mapped_column(Double)
    resolved_at: Mapped[float | None] = mapped_column(Double, default=None)

    __table_args__ = (Index("ix_reports_reporter_id_created_at", "reporter_id", "created_at"),)


class Webhook(Base):
    """Where a player's account events are POSTed. The secret signs each delivery,
    so it is kept as it is (shown to the player once, at creation)."""

    __tablename__ = "webhooks"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    url: Mapped[str] = mapped_column(String(2000))
    events: Mapped[str] = mapped_column(String(400))  # comma-separated event types
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Double)
    # Since when every delivery failed (None: the last one succeeded); a day of it
    # disables the webhook.
    failing_since: Mapped[float | None] = mapped_column(Double, default=None)
    disabled_at: Mapped[float | None] = mapped_column(Double, default=None)
    # Deliveries dropped unsent, the oldest first, while its backlog was full.
    dropped: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class WebhookDelivery(Base):
    """One event for one webhook: its id is the ``webhook-id`` header (the same on
    every attempt, so a receiver dedupes by it). A queue in the database: a worker
    leases a due delivery until ``lease_until``; one that dies lets it fall due."""

    __tablename__ = "webhook_deliveries"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    webhook_id: Mapped[str] = mapped_column(ForeignKey("webhooks.id"), index=True)
    event: Mapped[str] = mapped_column(String(32))
    payload: Mapped[str] = mapped_column(String(8000))
    created_at: Mapped[float] = mapped_column(Double)
    state: Mapped[str] = mapped_column(String(10))  # pending, delivered, failed
    next_at: Mapped[float] = mapped_column(Double)
    lease_until: Mapped[float] = mapped_column(Double, default=0.0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (Index("ix_webhook_deliveries_state_next_at", "state", "next_at"),)


class WebhookAttempt(Base):
    """One try at a delivery: the receiver's status, or what went wrong."""

    __tablename__ = "webhook_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    delivery_id: Mapped[str] = mapped_column(ForeignKey("webhook_deliveries.id"), index=True)
    at: Mapped[float] = mapped_column(Double)
    status: Mapped[int | None] = mapped_column(SmallInteger, default=None)
    error: Mapped[str | None] = mapped_column(String(200), default=None)
    duration_ms: Mapped[float] = mapped_column(Double)


class Tournament(Base):
    """A swiss or a duplicate event (``rounds`` fixed in advance) or an arena
    (``minutes`` long), made by a player. ``round`` counts the rounds made so far:
    each is made once, by the worker whose compare-and-set on it succeeds. A
    duplicate event's ``seeds`` (JSON, secret) deal its rounds."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    creator: Mapped[str] = mapped_column(ForeignKey("players.id"))
    variant: Mapped[str] = mapped_column(String(16))
    system: Mapped[str] = mapped_column(String(10))  # swiss, arena or duplicate
    rounds: Mapped[int | None] = mapped_column(SmallInteger, default=None)
    minutes: Mapped[int | None] = mapped_column(Integer, default=None)
    players: Mapped[int] = mapped_column(SmallInteger)  # at each table
    rated: Mapped[bool] = mapped_column(Boolean)
    turn_seconds: Mapped[float] = mapped_column(Double)
    days: Mapped[int | None] = mapped_column(SmallInteger, default=None)  # a days tournament
    max_players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))  # upcoming, running, finished
    round: Mapped[int] = mapped_column(SmallInteger, default=0)
    created_at: Mapped[float] = mapped_column(Double)
    starts_at: Mapped[float] = mapped_column(Double)
    ended_at: Mapped[float | None] = mapped_column(Double, default=None)
    seeds: Mapped[str | None] = mapped_column(Text, default=None)

    __table_args__ = (Index("ix_tournaments_status_starts_at", "status", "starts_at"),)


class TournamentEntry(Base):
    """One entry: a player (``entry`` is their id) or a bot the creator entered
    (``bot:<level>:<n>``), with the rating it entered with."""

    __tablename__ = "tournament_entries"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    entry: Mapped[str] = mapped_column(String(40), primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)
    bot: Mapped[str | None] = mapped_column(String(16), default=None)
    name: Mapped[str] = mapped_column(String(40))
    rating: Mapped[float] = mapped_column(Double)
    joined_at: Mapped[float] = mapped_column(Double)
    withdrawn_at: Mapped[float | None] = mapped_column(Double, default=None)
    entropy: Mapped[str | None] = mapped_column(String(64), default=None)


class TournamentTable(Base):
    """One table of a round: its entries in seat order (JSON), the game's id and its
    deal's server seed (so the game is made the same by whichever worker makes it),
    and each seat's points once it ended. A bye is a table of one with no game."""

    __tablename__ = "tournament_tables"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    board: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    seats: Mapped[str] = mapped_column(String(400))
    game_id: Mapped[str | None] = mapped_column(String(32), unique=True, default=None)
    server_seed: Mapped[str | None] = mapped_column(String(64), default=None)
    points: Mapped[str | None] = mapped_column(String(100), default=None)
    made_at: Mapped[float] = mapped_column(Double)
    ended_at: Mapped[float | None] = mapped_column(Double, default=None)
    detail: Mapped[str | None] = mapped_column(String(200), default=None)  # duplicate
