"""The embedded store: everything in this process's memory, guarded by one lock.

Used when no REDIS_URL is set. It follows the same TTL policy as Redis, purging
lazily, and serves one process only (run one worker with it).
"""

from __future__ import annotations

import copy
import json
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from . import IDEMPOTENCY_TTL_S, TTL_SECONDS, Change, Event, Record

T = TypeVar("T")


class MemoryStore:
    """A thread-safe dict of games; every update runs under the lock, so it is atomic."""

    kind = "memory"

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        # Re-entrant: a decision made inside update() may read (recall) the store.
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._clock = clock
        self._games: dict[str, tuple[str, float]] = {}  # id -> (JSON, expires at)
        self._events: dict[str, list[Event]] = {}
        self._remembered: dict[tuple[str, str], tuple[Record, float]] = {}

    def ping(self) -> None:
        return None

    def create(self, record: Record, events: list[Event]) -> None:
        with self._lock:
            self._write(record, events)

    def load(self, game_id: str) -> Record | None:
        with self._lock:
            return self._read(game_id)

    def update(self, game_id: str, decide: Callable[[Record], tuple[Change, T]]) -> T:
        with self._lock:
            record = self._read(game_id)
            if record is None:
                raise KeyError(game_id)
            change, result = decide(record)
            if change.record is not None:
                self._write(change.record, change.events)
            if change.remember is not None:
                key, response = change.remember
                expires = self._clock() + IDEMPOTENCY_TTL_S
                self._remembered[(game_id, key)] = (copy.deepcopy(response), expires)
            return result

    def events_after(self, game_id: str, version: int) -> list[Event]:
        with self._lock:
            return [e for e in self._events.get(game_id, []) if e["version"] > version]

    def feed(self, game_id: str, after: int) -> MemoryFeed:
        return MemoryFeed(self, game_id, after)

    def recall(self, game_id: str, key: str) -> Record | None:
        with self._lock:
            found = self._remembered.get((game_id, key))
            if found is None or found[1] <= self._clock():
                return None
            return copy.deepcopy(found[0])

    def list_games(
        self, status: str, variant: str | None, offset: int, limit: int
    ) -> tuple[list[Record], int]:
        with self._lock:
            found = [
                r for r in (self._read(game_id) for game_id in list(self._games)) if r
                if r["status"] == status and variant in (None, r["variant"])
            ]  # fmt: skip
        found.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
        return found[offset : offset + limit], len(found)

    # Records are kept as JSON text so that callers can never share mutable state.
    def _read(self, game_id: str) -> Record | None:
        entry = self._games.get(game_id)
        if entry is None:
            return None
        if entry[1] <= self._clock():
            del self._games[game_id]
            self._events.pop(game_id, None)
            return None
        record: Record = json.loads(entry[0])
        return record

    def _write(self, record: Record, events: list[Event]) -> None:
        expires = self._clock() + TTL_SECONDS[record["status"]]
        self._games[record["id"]] = (json.dumps(record), expires)
        self._events.setdefault(record["id"], []).extend(copy.deepcopy(events))
        self._changed.notify_all()


class MemoryFeed:
    """Waits on the store's condition variable, which every write notifies."""

    def __init__(self, store: MemoryStore, game_id: str, after: int) -> None:
        self._store, self._game_id, self._last = store, game_id, after

    def next_batch(self, timeout: float) -> list[Event]:
        with self._store._changed:
            events = self._store.events_after(self._game_id, self._last)
            if not events:
                self._store._changed.wait(timeout)
                events = self._store.events_after(self._game_id, self._last)
        if events:
            self._last = events[-1]["version"]
        return events

    def close(self) -> None:
        return None
