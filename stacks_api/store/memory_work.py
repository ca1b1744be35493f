"""The embedded store's work queue: due times and leases in this process."""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager
from typing import Protocol

from . import BOTS_ALONE_LATER

REPAIR_BATCH = 500  # games one repair of the work queue reads


class Games(Protocol):
    """What the queue reads of the embedded store's games."""

    def game_ids(self) -> list[str]:
        """Every game the store holds."""

    def holding(self, game_id: str) -> AbstractContextManager[object]:
        """Hold the game's lock (nothing, for a game the store does not hold)."""

    def due_of(self, game_id: str) -> float | None:
        """The game's entry as its record says (called with its lock held or not)."""


class MemoryWorkQueue:
    """The embedded store's work queue: due times and leases in this process.

    Lock order: a game's lock, then this queue's (a write holds its game's lock
    when it sets the entry; a release reads the record, then sets the entry).
    """

    def __init__(self, games: Games) -> None:
        self._games = games
        self._lock = threading.Lock()
        self._bell = threading.Condition(self._lock)
        self._rung = False
        self._due: dict[str, float] = {}
        self._leases: dict[str, tuple[str, float]] = {}
        self._repaired_up_to = ""  # the last game id the last repair looked at

    def set_due(self, game_id: str, at: float | None) -> None:
        with self._lock:
            if at is None:
                self._due.pop(game_id, None)
            else:
                self._due[game_id] = at

    def claim(self, now: float, owner: str, lease_s: float) -> str | None:
        with self._lock:
            for band in (0.0, BOTS_ALONE_LATER):  # people's games, then bots alone
                overdue = sorted((at, g) for g, at in self._due.items() if band <= at <= band + now)
                for _, game_id in overdue:
                    held = self._leases.get(game_id)
                    if held is None or held[1] <= now:
                        self._leases[game_id] = (owner, now + lease_s)
                        return game_id
        return None

    def people_waiting(self, now: float) -> bool:
        with self._lock:
            return any(
                at <= now and (g not in self._leases or self._leases[g][1] <= now)
                for g, at in self._due.items()
            )

    def extend(self, game_id: str, owner: str, lease_s: float, now: float) -> bool:
        with self._lock:
            held = self._leases.get(game_id)
            if held is None or held[0] != owner:
                return False
            self._leases[game_id] = (owner, now + lease_s)
            return True

    def release(self, game_id: str, owner: str) -> None:
        # No write of the game can come between reading it and setting its entry.
        with self._games.holding(game_id):
            at = self._games.due_of(game_id)
            with self._lock:
                held = self._leases.get(game_id)
                if held is None or held[0] != owner:
                    return
                del self._leases[game_id]
                if at is None:
                    self._due.pop(game_id, None)
                else:
                    self._due[game_id] = at

    def next_due(self) -> float | None:
        with self._lock:
            first = min(self._due.values(), default=None)
        return first if first is None or first < BOTS_ALONE_LATER else first - BOTS_ALONE_LATER

    def ring(self) -> None:
        with self._bell:
            self._rung = True
            self._bell.notify()

    def wait(self, timeout: float) -> None:
        with self._bell:
            if not self._rung:
                self._bell.wait(timeout)
            self._rung = False

    def repair(self, now: float, every_s: float) -> int:
        """Set the entries of the next batch of games from their records (only a bug,
        or a test that drops one, could make one go missing here)."""
        ids = sorted(self._games.game_ids())
        batch = [g for g in ids if g > self._repaired_up_to][:REPAIR_BATCH]
        self._repaired_up_to = batch[-1] if len(batch) == REPAIR_BATCH else ""
        restored = 0
        for game_id in batch:
            at = self._games.due_of(game_id)
            with self._lock:
                if at is not None and game_id not in self._due:
                    self._due[game_id] = at
                    restored += 1
        with self._lock:  # leases of games that ended while their worker was gone
            self._leases = {g: h for g, h in self._leases.items() if h[1] >= now - 60}
        return restored
