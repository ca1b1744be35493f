"""Where live games are kept: one GameStore interface, an in-memory and a Redis backend.

TTL policy (seconds since the last change; every write renews it):
- waiting games (seats still open): 24 hours;
- active games: 7 days;
- finished or cancelled games, with their events: 24 hours, so late clients can
  still read the result; a game that waits in the outbox to be archived has no
  TTL until it is archived, then 24 hours from then (the archive answers after);
- responses remembered under an Idempotency-Key: 24 hours;
- lobby index entries: as long as their game (the index is pruned by the time
  of each game's last change, and the index itself expires when idle);
- work queue entries: until the game no longer needs a worker (each write of
  the game sets or removes its entry, in the same atomic step).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..model.challenges import Answer, Challenge
from ..model.events import Event
from ..model.record import JSON, GameRecord
from ..model.seeks import Seek

if TYPE_CHECKING:  # their modules import this one (its errors)
    from .rated_pairs import RatedPairs
    from .revocations import RevocationCount

T = TypeVar("T")

TTL_SECONDS = {
    "waiting": 24 * 3600,
    "active": 7 * 24 * 3600,
    "finished": 24 * 3600,
    "cancelled": 24 * 3600,
    "aborted": 24 * 3600,
}
IDEMPOTENCY_TTL_S = 24 * 3600
# How many of a player's newest games the live store remembers for the player's
# history (the archive keeps every ended one).
PLAYER_GAMES_KEPT = 200
# A web process reports its open streams every few seconds; a report older than
# this is a process that has gone.
STREAM_REPORTS_FRESH_S = 10.0


# People first: a game where nobody waits (bots alone) is queued this much later
# than its due time, in a band of its own after every game a person waits in. A
# runner takes one only when no person's game is due, and lets it go after any
# step when one becomes due.
BOTS_ALONE_LATER = 1e10


def due_at(record: GameRecord) -> float | None:
    """When the game next needs a background worker, as its record says (an active
    game, or a waiting one whose held seats run out)."""
    return record.due_at if record.status in ("active", "waiting") else None


def lobby_index(record: GameRecord) -> str:
    """The lobby index a game is listed in: its variant's, or (a private table) a
    hidden one beside it that no public listing reads."""
    return f"{record.variant}{UNLISTED}" if record.unlisted else record.variant


# The suffix of the indexes of private tables (kept for repairs and sweeps).
UNLISTED = ".unlisted"


def bots_alone(record: GameRecord) -> bool:
    """Whether no person is at the table (nor held a seat there): nobody waits."""
    return all(seat.state not in ("human", "away", "reserved") for seat in record.seats)


def queue_score(record: GameRecord) -> float | None:
    """The game's score in the work queue: its due time, in the later band when only
    bots are at the table."""
    due = due_at(record)
    if due is None:
        return None
    return due + BOTS_ALONE_LATER if bots_alone(record) else due


class StoreUnavailable(RuntimeError):
    """The backing store cannot be reached (the API answers 503)."""


class StoreDegraded(StoreUnavailable):
    """The store answers but refuses writes (out of memory, read-only)."""


@dataclass
class Change:
    """What an update decided: the record to write (None: write nothing) and its events."""

    record: GameRecord | None
    events: list[Event] = field(default_factory=list)
    # A response to remember under an Idempotency-Key, written in the same atomic step.
    remember: tuple[str, JSON] | None = None
    # The change ends the game and puts it in the outbox of games to archive.
    archive: bool = False


class EventFeed(Protocol):
    """A game's events, delivered in order from a version on."""

    def next_batch(self, timeout: float) -> list[Event]:
        """The events after those already returned, waiting up to ``timeout`` seconds
        (or less: after ``interrupt``, it may answer none at once)."""

    def interrupt(self) -> None:
        """Make a waiting ``next_batch`` return now; safe to call from any thread."""

    def close(self) -> None:
        """Release the subscription."""


class WorkQueue(Protocol):
    """The games that need a background worker, and the leases of those being worked.

    A game's entry is its record's ``due_at`` (epoch seconds; absent or None: it
    needs nobody), written by the store in the same atomic step as the record.
    """

    def claim(self, now: float, owner: str, lease_s: float) -> str | None:
        """Lease the most overdue game (``due_at <= now``) that no live lease holds,
        a game where a person waits before any game of bots alone."""

    def extend(self, game_id: str, owner: str, lease_s: float, now: float) -> bool:
        """Renew ``owner``'s lease to ``now + lease_s``; False if it holds none."""

    def release(self, game_id: str, owner: str) -> None:
        """End ``owner``'s lease and set the game's entry from its record again;
        nothing if the lease is someone else's now."""

    def next_due(self) -> float | None:
        """The earliest entry's time (it may be leased)."""

    def people_waiting(self, now: float) -> bool:
        """Whether a game a person waits in is due and held by no runner."""

    def ring(self) -> None:
        """Wake a waiting runner: a game is due now."""

    def wait(self, timeout: float) -> None:
        """Block until a ring or ``timeout`` seconds."""

    def repair(self, now: float, every_s: float) -> int:
        """Restore the entries of active games that lost theirs, a batch at a time
        (one runner in ``every_s`` across all processes); how many were restored."""


class SeekBoard(Protocol):
    """Quick pairing's requests ("seeks"), each waiting, paired, withdrawn or
    expired. Every change is atomic; pairing is a compare-and-set over waiting
    seeks, so nobody is paired twice however many processes pair at once."""

    def add(self, seek: Seek) -> Seek | None:
        """Add a waiting seek; None, or (adding nothing) the player's seek that still
        waits."""

    def get(self, seek_id: str) -> Seek | None: ...

    def latest(self, player_id: str) -> Seek | None:
        """The player's latest seek (waiting or not), while it is remembered."""

    def waiting(self, pool: str) -> list[Seek]:
        """The pool's waiting seeks."""

    def pools(self) -> list[str]:
        """Every pool that has had a seek."""

    def pair(self, seek_ids: list[str], game_id: str, now: float) -> bool:
        """If every seek still waits: each is paired into ``game_id`` (``seat``: its
        place in ``seek_ids``, kept as ``group``), and True; else nothing changes,
        and False."""

    def close(self, seek_id: str, status: str, now: float) -> Seek | None:
        """A waiting seek becomes ``status`` (withdrawn or expired); the seek as it is
        now (unchanged if it no longer waited), None if unknown."""


class ChallengeBoard(Protocol):
    """Challenges from one player to another, remembered until ``KEEP_CLOSED_S``
    after they expire."""

    def add(self, challenge: Challenge, most: int) -> str | None:
        """Add a pending challenge; None, or (adding nothing) why not: ``pending``
        (its challenger has one to the same player still pending) or ``limit``
        (``most`` still pending)."""

    def get(self, challenge_id: str) -> Challenge | None: ...

    def of(self, player_id: str) -> list[Challenge]:
        """The challenges the player sent or received, newest first."""

    def settle(self, challenge_id: str, status: str, answer: Answer) -> Challenge | None:
        """A pending challenge becomes ``status``, with ``answer``'s fields set; the
        challenge as it is now (unchanged if it was no longer pending), None if
        unknown."""


class PresenceBoard(Protocol):
    """When each seat's person was last seen at a game (a request of theirs, or an
    open stream), kept a while after the game ends."""

    def seen(self, game_id: str, seat: int, at: float) -> None: ...

    def of(self, game_id: str) -> dict[int, float]:
        """Each seat's person's last time seen (seats never seen are absent)."""


class Budget(Protocol):
    def take(self, budget: str, subject: str, rule: str) -> bool:
        """Spend one of ``subject``'s ``budget`` if ``rule`` (``3/minute;20/hour``)
        leaves room; whether it did."""


class JobBoard(Protocol):
    """Jobs asked of the workers (hints, analyses) and their results: ``key`` begins
    with the game's id."""

    def get(self, key: str) -> JSON | None:
        """The result, or None."""

    def ask(self, key: str) -> bool:
        """Queue the job for a worker unless it was queued lately; whether it was."""

    def claim(self, limit: int) -> list[str]:
        """Up to ``limit`` queued jobs, taken off the queue."""

    def put(self, key: str, result: JSON) -> None:
        """Keep a result a while."""


class GameStore(Protocol):
    """Atomic storage of game records, each kept in its JSON form (``GameRecord.to_json``)."""

    kind: str

    @property
    def work(self) -> WorkQueue:
        """The games that need a background worker."""

    @property
    def seeks(self) -> SeekBoard:
        """Quick pairing's requests."""

    @property
    def challenges(self) -> ChallengeBoard:
        """Challenges between players."""

    @property
    def hints(self) -> JobBoard:
        """Hints asked for and computed."""

    @property
    def presence(self) -> PresenceBoard:
        """When each seat's person was last seen."""

    @property
    def rated_pairs(self) -> RatedPairs:
        """The rated games each pair of accounts began lately."""

    @property
    def revocations(self) -> RevocationCount:
        """Credentials revoked so far (open streams and sockets look again when it moves)."""

    @property
    def budgets(self) -> Budget:
        """What one subject may start in a moving window (``store.budgets``)."""

    @property
    def analyses(self) -> JobBoard:
        """Analyses of ended games asked for (the archive keeps them)."""

    def ping(self) -> None:
        """Raise StoreUnavailable unless the store answers, StoreDegraded unless it writes."""

    def create(self, record: GameRecord, events: list[Event]) -> bool:
        """Store a new game with its first events; False (and nothing written) if a
        game with its id exists already."""

    def load(self, game_id: str) -> GameRecord | None:
        """The game's record, or None."""

    def snapshot(self, game_id: str) -> bytes | None:
        """The game's record as the store holds it (equal snapshots are the same
        record), or None; ``parse`` reads it."""

    def parse(self, snapshot: bytes) -> GameRecord:
        """The record of a ``snapshot``."""

    def update(self, game_id: str, decide: Callable[[GameRecord], tuple[Change, T]]) -> T:
        """Compare-and-set: ``decide`` sees the current record and says what to write.

        ``decide`` may run more than once (on a conflicting write) and may raise to
        abort with nothing written. Its Change is written only if nobody else wrote
        the game in between; events are appended in the same atomic step.
        """

    def events_after(self, game_id: str, version: int, newest: int | None = None) -> list[Event]:
        """The game's events with a version above ``version``, oldest first; ``newest``,
        the game's version as the caller read it, bounds what is read."""

    def feed(self, game_id: str, after: int) -> EventFeed:
        """Follow the game's events after version ``after``, as other workers write them."""

    def recall(self, game_id: str, key: str) -> JSON | None:
        """A response remembered under an Idempotency-Key, if any."""

    def list_games(
        self,
        status: str,
        variant: str | None,
        offset: int,
        limit: int,
        after: tuple[float, str] | None = None,
    ) -> tuple[list[GameRecord], int]:
        """A page of games with that status (newest first: by last change, then id)
        and how many there are. ``after`` (the last change and id of the last game
        of the page before) starts the page there instead of at ``offset``: each
        index is read from that point, however deep."""

    def count_live(self) -> dict[str, int]:
        """How many games are being played, by variant (private tables included)."""

    def count_streams(self, process: str, open_here: int, now: float) -> int:
        """Record how many event streams ``process`` serves; the total over every
        process that reported within ``STREAM_REPORTS_FRESH_S``."""

    def watch(self, game_id: str, watcher: str, until: float | None) -> None:
        """Count ``watcher`` (one spectator's open stream) among the game's spectators
        until ``until`` (epoch seconds), when it is refreshed again (None: it has gone)."""

    def spectators(self, game_ids: list[str]) -> dict[str, int]:
        """How many spectators each game has now."""

    # Each player's games that may still be live (the archive has the ended ones).

    def index_player_game(self, player_id: str, game_id: str, at: float) -> None:
        """Note that the player holds a seat in the game (kept as long as an active
        game, the newest ``PLAYER_GAMES_KEPT``)."""

    def player_games(self, player_id: str) -> list[str]:
        """The games noted for the player, newest first (some may have ended or
        expired)."""

    # The outbox of ended games to archive (a Change with ``archive`` adds one).

    def claim_archiving(self, now: float, lease_s: float, limit: int) -> list[str]:
        """Up to ``limit`` games of the outbox nobody holds, each held for ``lease_s``
        (then it is due again: a worker that died lets another take it)."""

    def archived(self, game_id: str) -> None:
        """The game is in the archive: out of the outbox, and it expires from now on."""

    def requeue_archiving(self, game_id: str) -> bool:
        """Put an ended game back in the outbox (its entry went missing); False when
        the game is gone."""

    def forget(self, game_id: str) -> bool:
        """Drop an ended game the archive has (its reads come from the archive from
        now on); False, dropping nothing, when it is live or still in the outbox."""

    def archiving_backlog(self) -> int:
        """How many games wait in the outbox."""

    def ended_games(self, since: float, limit: int) -> list[str]:
        """Ids of games that ended (or changed after ending) since ``since``, at
        most ``limit`` per index."""


def make_store(
    redis_url: str | None,
    prefix: str,
    timeout_s: float,
    variants: tuple[str, ...],
    shards: int = 16,
    replica_acks: int = 1,
) -> GameStore:
    """The Redis store when a URL is configured (a Redis Cluster for a
    ``redis+cluster://`` URL), else the embedded in-memory one.

    ``variants`` names the games the lobby indexes (one index per status and
    variant); ``shards`` and ``replica_acks`` apply to a cluster only.
    """
    if redis_url:
        from .redis import RedisStore

        return RedisStore(redis_url, variants, prefix, timeout_s, shards, replica_acks)
    from .memory import MemoryStore

    return MemoryStore()
