"""The embedded store: everything in this process's memory, one lock per game.

Used when no REDIS_URL is set. It follows the same TTL policy as Redis (expired
games and idempotency records are purged as they are met and by a periodic
sweep) and serves one process only (run one worker with it).
"""

from __future__ import annotations

import contextlib
import copy
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from ..model.events import Event
from ..model.record import ENDED, JSON, GameRecord
from . import IDEMPOTENCY_TTL_S, PLAYER_GAMES_KEPT, TTL_SECONDS, Change, queue_score
from .budgets import Budgets
from .memory_challenges import MemoryChallenges
from .memory_jobs import MemoryJobs
from .memory_seeks import MemorySeeks
from .memory_work import MemoryWorkQueue
from .presence import MemoryPresence
from .rated_pairs import MemoryRatedPairs
from .revocations import MemoryRevocations

T = TypeVar("T")
SWEEP_EVERY_S = 60.0


@dataclass
class _Slot:
    """One game: its record (as JSON bytes, so callers never share mutable state),
    its events, its remembered responses, and the lock that makes its updates atomic."""

    lock: threading.RLock = field(default_factory=threading.RLock)
    changed: threading.Condition = field(init=False)
    state: bytes | None = None  # the record's JSON
    expires: float = 0.0
    # What the lobby sorts and filters by, kept beside the JSON so that listing
    # decodes only the games of the page it answers.
    status: str = ""
    variant: str = ""
    unlisted: bool = False
    last_change: float = 0.0
    events: list[Event] = field(default_factory=list)
    remembered: dict[str, tuple[str, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.changed = threading.Condition(self.lock)


class MemoryStore:
    """A dict of games; an update holds only its own game's lock, so nothing one
    game does makes another wait."""

    kind = "memory"

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._slots: dict[str, _Slot] = {}
        self._slots_lock = threading.Lock()  # held only to find or drop a slot
        self._next_sweep = clock() + SWEEP_EVERY_S
        self.work = MemoryWorkQueue(self)
        self.seeks = MemorySeeks()
        self.challenges = MemoryChallenges()
        self.budgets = Budgets(None, "memory")
        self.presence = MemoryPresence()
        self.revocations = MemoryRevocations()
        self.rated_pairs = MemoryRatedPairs()
        self.hints = MemoryJobs(clock)
        self.analyses = MemoryJobs(clock)
        # Ended games waiting to be archived: id -> when it may next be claimed.
        self._outbox: dict[str, float] = {}
        self._outbox_lock = threading.Lock()
        self._player_games: dict[str, dict[str, float]] = {}
        self._watchers: dict[str, dict[str, float]] = {}  # game -> stream -> until

    def ping(self) -> None:
        return None

    def create(self, record: GameRecord, events: list[Event]) -> bool:
        self._sweep_if_due()
        slot = self._slot(record.id, create=True)
        assert slot is not None
        with slot.lock:
            if self._read(slot) is not None:
                return False
            self._write(slot, record, events)
            return True

    def load(self, game_id: str) -> GameRecord | None:
        snapshot = self.snapshot(game_id)
        return None if snapshot is None else self.parse(snapshot)

    def snapshot(self, game_id: str) -> bytes | None:
        slot = self._slot(game_id)
        if slot is None:
            return None
        with slot.lock:
            live = slot.state is not None and slot.expires > self._clock()
            return slot.state if live else None

    def parse(self, snapshot: bytes) -> GameRecord:
        return GameRecord.from_json(json.loads(snapshot))

    def update(self, game_id: str, decide: Callable[[GameRecord], tuple[Change, T]]) -> T:
        slot = self._slot(game_id)
        if slot is None:
            raise KeyError(game_id)
        with slot.lock:
            record = self._read(slot)
            if record is None:
                raise KeyError(game_id)
            change, result = decide(record)
            if change.record is not None:
                self._write(slot, change.record, change.events, change.archive)
            if change.remember is not None:
                key, response = change.remember
                expires = self._clock() + IDEMPOTENCY_TTL_S
                slot.remembered[key] = (json.dumps(response), expires)
            return result

    def events_after(self, game_id: str, version: int, newest: int | None = None) -> list[Event]:
        slot = self._slot(game_id)
        if slot is None:
            return []
        with slot.lock:
            if self._read(slot) is None:
                return []
            return copy.deepcopy(slot.events[_first_after(slot.events, version) :])

    def feed(self, game_id: str, after: int) -> MemoryFeed:
        return MemoryFeed(self, game_id, after)

    def recall(self, game_id: str, key: str) -> JSON | None:
        slot = self._slot(game_id)
        if slot is None:
            return None
        with slot.lock:
            found = slot.remembered.get(key)
            if found is None or found[1] <= self._clock():
                return None
            remembered: JSON = json.loads(found[0])
            return remembered

    def list_games(
        self,
        status: str,
        variant: str | None,
        offset: int,
        limit: int,
        after: tuple[float, str] | None = None,
    ) -> tuple[list[GameRecord], int]:
        with self._slots_lock:
            items = list(self._slots.items())
        now = self._clock()
        listed = [
            (slot.last_change, game_id, slot)
            for game_id, slot in items
            if slot.status == status
            and variant in (None, slot.variant)
            and not slot.unlisted
            and slot.state is not None
            and slot.expires > now
        ]
        listed.sort(key=lambda entry: entry[:2], reverse=True)
        total = len(listed)
        if after is not None:
            listed, offset = [entry for entry in listed if entry[:2] < after], 0
        page = []
        for _, _, slot in listed[offset : offset + limit]:
            with slot.lock:
                record = self._read(slot)
            if record is not None and record.status == status:
                page.append(record)
        return page, total

    def count_live(self) -> dict[str, int]:
        with self._slots_lock:
            slots = list(self._slots.values())
        now, live = self._clock(), dict[str, int]()
        for slot in slots:
            if slot.status == "active" and slot.state is not None and slot.expires > now:
                live[slot.variant] = live.get(slot.variant, 0) + 1
        return live

    def count_streams(self, process: str, open_here: int, now: float) -> int:
        return open_here  # one process serves everything

    def watch(self, game_id: str, watcher: str, until: float | None) -> None:
        with self._outbox_lock:
            watchers = self._watchers.setdefault(game_id, {})
            if until is None:
                watchers.pop(watcher, None)
            else:
                watchers[watcher] = until

    def spectators(self, game_ids: list[str]) -> dict[str, int]:
        now = time.time()  # a watcher's ``until`` is epoch seconds
        with self._outbox_lock:
            found = {g: self._watchers.get(g, {}) for g in game_ids}
            return {g: sum(1 for until in w.values() if until > now) for g, w in found.items()}

    def index_player_game(self, player_id: str, game_id: str, at: float) -> None:
        with self._outbox_lock:
            games = self._player_games.setdefault(player_id, {})
            games[game_id] = at
            if len(games) > PLAYER_GAMES_KEPT:
                del games[min(games, key=games.__getitem__)]

    def player_games(self, player_id: str) -> list[str]:
        with self._outbox_lock:
            games = dict(self._player_games.get(player_id, {}))
        return sorted(games, key=games.__getitem__, reverse=True)

    def claim_archiving(self, now: float, lease_s: float, limit: int) -> list[str]:
        with self._outbox_lock:
            due = sorted((at, g) for g, at in self._outbox.items() if at <= now)[:limit]
            for _, game_id in due:
                self._outbox[game_id] = now + lease_s
        return [game_id for _, game_id in due]

    def archived(self, game_id: str) -> None:
        slot = self._slot(game_id)
        with slot.lock if slot is not None else contextlib.nullcontext():
            with self._outbox_lock:
                was_waiting = self._outbox.pop(game_id, None) is not None
            if slot is not None and was_waiting:
                slot.expires = self._clock() + TTL_SECONDS["finished"]

    def requeue_archiving(self, game_id: str) -> bool:
        slot = self._slot(game_id)
        if slot is None:
            return False
        with slot.lock:
            if self._read(slot) is None:
                return False
            with self._outbox_lock:
                self._outbox.setdefault(game_id, 0.0)
            slot.expires = float("inf")
        return True

    def forget(self, game_id: str) -> bool:
        slot = self._slot(game_id)
        if slot is None:
            return True
        with slot.lock:
            with self._outbox_lock:
                if game_id in self._outbox:
                    return False
            record = self._read(slot)
            if record is not None and not record.ended:
                return False
            with self._slots_lock:
                self._slots.pop(game_id, None)
        return True

    def archiving_backlog(self) -> int:
        with self._outbox_lock:
            return len(self._outbox)

    def ended_games(self, since: float, limit: int) -> list[str]:
        with self._slots_lock:
            items = list(self._slots.items())
        return [
            game_id for game_id, slot in items if slot.status in ENDED and slot.last_change >= since
        ][:limit]

    def sweep(self) -> None:
        """Drop every expired game and idempotency record."""
        now = self._clock()
        with self._slots_lock:
            items = list(self._slots.items())
        for game_id, slot in items:
            with slot.lock:
                slot.remembered = {k: v for k, v in slot.remembered.items() if v[1] > now}
                if slot.expires <= now:
                    slot.state = None
                    self.work.set_due(game_id, None)
                    with self._slots_lock:
                        self._slots.pop(game_id, None)
                    with self._outbox_lock:
                        self._watchers.pop(game_id, None)

    def _sweep_if_due(self) -> None:
        if self._clock() >= self._next_sweep:
            self._next_sweep = self._clock() + SWEEP_EVERY_S
            self.sweep()

    def _slot(self, game_id: str, create: bool = False) -> _Slot | None:
        with self._slots_lock:
            slot = self._slots.get(game_id)
            if slot is None and create:
                slot = self._slots[game_id] = _Slot()
            return slot

    def _read(self, slot: _Slot) -> GameRecord | None:
        if slot.state is None or slot.expires <= self._clock():
            return None
        return self.parse(slot.state)

    def _write(
        self, slot: _Slot, record: GameRecord, events: list[Event], archive: bool = False
    ) -> None:
        slot.state = json.dumps(record.to_json()).encode()
        slot.status, slot.variant, slot.unlisted = record.status, record.variant, record.unlisted
        slot.last_change = record.updated_at
        with self._outbox_lock:
            if archive:
                self._outbox[record.id] = 0.0
            waiting = record.id in self._outbox
        # A game waiting to be archived does not expire until it is.
        slot.expires = float("inf") if waiting else self._clock() + TTL_SECONDS[record.status]
        slot.events.extend(copy.deepcopy(events))
        self.work.set_due(record.id, queue_score(record))
        slot.changed.notify_all()

    # What the work queue reads (``memory_work.Games``).

    def game_ids(self) -> list[str]:
        with self._slots_lock:
            return list(self._slots)

    def holding(self, game_id: str) -> contextlib.AbstractContextManager[object]:
        slot = self._slot(game_id)
        return slot.lock if slot is not None else contextlib.nullcontext()

    def due_of(self, game_id: str) -> float | None:
        """The game's entry as its record says, read under the game's lock (an RLock:
        the queue may hold it already)."""
        slot = self._slot(game_id)
        if slot is None:
            return None
        with slot.lock:
            record = self._read(slot)
            return None if record is None else queue_score(record)


def _first_after(events: list[Event], version: int) -> int:
    """The index of the first event above ``version`` (events are in version order)."""
    low, high = 0, len(events)
    while low < high:
        middle = (low + high) // 2
        if events[middle]["version"] <= version:
            low = middle + 1
        else:
            high = middle
    return low


class MemoryFeed:
    """Waits on its game's condition variable, which every write to that game notifies.

    It remembers how far into the game's event list it has read, so a wake-up
    reads only what is new.
    """

    def __init__(self, store: MemoryStore, game_id: str, after: int) -> None:
        slot = store._slot(game_id)
        if slot is None:
            raise KeyError(game_id)
        self._slot = slot
        with slot.lock:
            self._index = _first_after(slot.events, after)

    def next_batch(self, timeout: float) -> list[Event]:
        slot = self._slot
        with slot.changed:
            if len(slot.events) <= self._index:
                slot.changed.wait(timeout)
            batch = copy.deepcopy(slot.events[self._index :])
            self._index = len(slot.events)
        return batch

    def interrupt(self) -> None:
        with self._slot.changed:
            self._slot.changed.notify_all()  # the game's other feeds find nothing new

    def close(self) -> None:
        return None
