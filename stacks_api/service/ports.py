"""The service's interface to the parts around it: everything the API, the workers
and the bots may use of the store comes through here, under the service's names.

The store implements ``GameStore`` and ``WorkQueue`` (``stacks_api.store``); the
runners implement ``Jobs`` (``stacks_api.workers.runner``); the archive
(``stacks_api.archive``) implements ``Archive``, ``GameArchive`` and ``Accounts``.
The service never imports the archive: the live path runs without a database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

from ..competition.ratings import Rating
from ..model.deliveries import Attempt, Candidate, Due, PushDue, PushOutcome
from ..model.grants import Code, Holder
from ..model.record import JSON, Archived, HistoryQuery
from ..model.tournaments import Board, Entry, Tournament
from ..store import EventFeed, StoreDegraded, StoreUnavailable, WorkQueue

# The service's own names for the store's troubles: the API answers 503 to both.
Unavailable = StoreUnavailable
Degraded = StoreDegraded

__all__ = [
    "Accounts",
    "Archive",
    "Degraded",
    "EventFeed",
    "GameArchive",
    "Jobs",
    "Unavailable",
    "WorkQueue",
]


class Jobs(Protocol):
    """What the service tells the background workers after a write."""

    def wake(self) -> None:
        """A game is due now (or a deadline moved nearer): look at the queue soon."""

    def ended(self) -> None:
        """A game ended and waits in the outbox: archive it soon."""

    def stop(self) -> None:
        """Stop any workers this process runs (the ones in other processes go on)."""


class GameArchive(Protocol):
    """Ended games, kept for good. Raises ``Unavailable`` while the database is."""

    def put(self, games: Iterable[Archived]) -> int:
        """Insert the games not archived yet, in one transaction; how many were new."""

    def archived(self, game_ids: list[str]) -> set[str]:
        """Which of ``game_ids`` are archived."""

    def document(self, game_id: str) -> JSON | None:
        """The game's record document."""

    def history(self, query: HistoryQuery, limit: int) -> list[JSON]:
        """A page of a player's ended games (summaries), newest first."""

    def export(self, query: HistoryQuery) -> Iterator[JSON]:
        """Every game of a player's history, as record documents, newest first."""


class Accounts(Protocol):
    """Players and their keys."""

    def create(self, name: str, label: str) -> tuple[JSON, str]:
        """A new player and its first key (the key is shown only here)."""

    def player(self, player_id: str) -> JSON | None: ...

    def player_of(self, key: str) -> str | None:
        """The player a key acts for; None for an unknown or revoked key."""

    def closed_since(self, since: float) -> list[str]:
        """The accounts closed (or deleted) after ``since``."""

    def set_challenges(self, player_id: str, accepts: bool) -> None:
        """Whether the player takes challenges from anyone, or from nobody."""

    def set_bot(self, player_id: str) -> None: ...

    def bots_among(self, player_ids: list[str]) -> set[str]: ...

    def search(self, text: str, limit: int) -> list[JSON]: ...

    def add_key(self, player_id: str, label: str) -> tuple[JSON, str]: ...

    def keys(self, player_id: str) -> list[JSON]: ...

    def revoke(self, player_id: str, key_id: str) -> bool: ...


class Ratings(Protocol):
    """Ratings per variant (applied by the archive when it keeps a rated game)."""

    def of(self, subject: str) -> JSON: ...

    def of_many(self, subjects: list[str]) -> dict[str, JSON]: ...

    def current(self, subjects: list[str], variant: str) -> dict[str, Rating]: ...

    def weights(self, subjects: list[str]) -> dict[str, float]: ...

    def leaderboard(self, variant: str, limit: int, bots: bool = False) -> list[JSON]: ...

    def bot_levels(self, variant: str) -> list[JSON]: ...

    def changes(self, game_id: str) -> list[JSON]: ...

    def history(self, subject: str, variant: str, limit: int = 500) -> list[JSON]: ...

    def recompute(self) -> int: ...


class Analyses(Protocol):
    """Ended games' analyses, kept beside their records."""

    def get(self, game_id: str) -> JSON | None: ...

    def put(self, game_id: str, analysis: JSON) -> None: ...


class Moderation(Protocol):
    """Reports, closed, renamed and deleted accounts, and a player's export."""

    def report(self, reporter_id: str, player_id: str, reason: str,
               game_id: str | None) -> JSON: ...  # fmt: skip

    def reports(self, include_resolved: bool = False) -> list[JSON]: ...

    def resolve(self, report_id: str) -> bool: ...

    def close(self, player_id: str, reason: str) -> bool: ...

    def rename(self, player_id: str, name: str) -> int: ...

    def delete(self, player_id: str) -> None: ...

    def export(
        self, player_id: str, games: Callable[[HistoryQuery], Iterator[JSON]]
    ) -> Iterator[JSON]: ...


class Webhooks(Protocol):
    """Players' webhooks and the durable queue of their deliveries."""

    def create(self, player_id: str, url: str, events: list[str]) -> tuple[JSON, str]: ...

    def of(self, player_id: str) -> list[JSON]: ...

    def remove(self, player_id: str, webhook_id: str) -> bool: ...

    def deliveries(self, player_id: str, webhook_id: str) -> list[JSON] | None: ...

    def disabled_since(self, player_id: str, since: float) -> list[JSON]: ...

    def active(self) -> list[JSON]: ...

    def enqueue(self, deliveries: Iterable[JSON]) -> int: ...

    def queued(self) -> int: ...

    def prune(self, before: float) -> int: ...

    def due(self, limit: int, per_webhook: int = 2) -> list[Candidate]: ...

    def lease(self, ids: list[str], lease_s: float) -> list[Due]: ...

    def claim(self, lease_s: float, limit: int) -> list[Due]: ...

    def finish_many(self, attempts: list[Attempt], first_delay_s: float) -> list[str]: ...


class Tournaments(Protocol):
    """Tournaments, their entries and their rounds' tables (``archive.tournaments``)."""

    def create(self, tournament: Tournament, most_upcoming: int) -> bool: ...

    def get(self, tournament_id: str) -> Tournament | None: ...

    def listed(self) -> list[JSON]: ...

    def page(
        self, status: str, after: tuple[float, float, str] | None, limit: int
    ) -> tuple[list[JSON], tuple[float, float, str] | None]: ...

    def of_player(self, player_id: str) -> list[Tournament]: ...

    def enter(self, tournament_id: str, entry: Entry, limit: int) -> str | None: ...

    def withdraw(self, tournament_id: str, entry: str) -> bool: ...

    def live(self, now: float) -> list[str]: ...

    def start_now(self, tournament_id: str, now: float) -> bool: ...

    def advance(
        self, tournament_id: str, status: str, to: str, ended_at: float | None,
        at_round: int | None = None,
    ) -> bool: ...  # fmt: skip

    def add_round(self, tournament_id: str, number: int, tables: list[Board]) -> bool: ...

    def score(
        self, tournament_id: str, number: int, board: int, points: list[float],
        detail: JSON | None = None,
    ) -> bool: ...  # fmt: skip


class Vacations(Protocol):
    """The vacation banks of days games (``archive.vacations``)."""

    def banks(self, player_ids: Iterable[str]) -> dict[str, float]: ...

    def take_day(
        self, game_id: str, seat: int, deadline: float, player_id: str | None
    ) -> float | None: ...


class Pushes(Protocol):
    """Web Push subscriptions, their queue, preferences and the server's keys
    (``archive.pushes``)."""

    def subscribe(self, player_id: str, endpoint: str, p256dh: str, auth: str,
                  events: list[str]) -> JSON: ...  # fmt: skip

    def of(self, player_id: str) -> list[JSON]: ...

    def remove(self, player_id: str, subscription_id: str) -> bool: ...

    def listeners(self) -> dict[str, float]: ...

    def subscriptions(self, player_id: str) -> list[JSON]: ...

    def enqueue(self, pushes: Iterable[JSON]) -> int: ...

    def due(self, limit: int) -> list[Candidate]: ...

    def lease(self, ids: list[str], lease_s: float) -> list[PushDue]: ...

    def finish_many(self, outcomes: list[PushOutcome], first_delay_s: float) -> list[str]: ...

    def queued(self) -> int: ...

    def prune(self, before: float) -> int: ...

    def preferences(self, player_id: str) -> JSON | None: ...

    def set_preferences(self, player_id: str, settings: JSON) -> None: ...

    def server_key(self, name: str, make: Callable[[], str]) -> str: ...


class Grants(Protocol):
    """The access other apps hold (``archive.grants``), and the OAuth codes."""

    def issue(self, player_id: str, kind: str, app: str, scopes: frozenset[str], prefix: str,
              expires_in: float | None = None, code_hash: str | None = None,
              ) -> tuple[JSON, str]: ...  # fmt: skip

    def holder(self, token: str) -> Holder | None: ...

    def of(self, player_id: str) -> list[JSON]: ...

    def revoke(self, player_id: str, grant_id: str) -> bool: ...

    def revoke_token(self, token: str) -> bool: ...

    def revoke_all(self, player_id: str) -> None: ...

    def save_code(self, code: str, player_id: str, client_id: str, redirect_uri: str,
                  scopes: str, challenge: str, lifetime_s: float) -> None: ...  # fmt: skip

    def take_code(self, code: str) -> Code | None: ...


class Archive(Protocol):
    """The archive's parts."""

    def reachable(self) -> bool: ...

    @property
    def grants(self) -> Grants: ...

    @property
    def pushes(self) -> Pushes: ...

    @property
    def vacations(self) -> Vacations: ...

    @property
    def tournaments(self) -> Tournaments: ...

    @property
    def moderation(self) -> Moderation: ...

    @property
    def webhooks(self) -> Webhooks: ...

    @property
    def games(self) -> GameArchive: ...

    @property
    def accounts(self) -> Accounts: ...

    @property
    def ratings(self) -> Ratings: ...

    @property
    def analyses(self) -> Analyses: ...

    @property
    def kind(self) -> str:
        """The database's kind: postgresql or sqlite."""
