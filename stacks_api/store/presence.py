"""Presence: when each seat's person was last seen, in Redis (one hash a game, in
the game's own slot) or in this process's memory."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from .keys import Keys
from .redis_connect import Connection
from .redis_errors import reachable

KEPT_S = 2 * 86_400  # a game's presence outlives its last sighting this long


class MemoryPresence:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: dict[str, dict[int, float]] = {}

    def seen(self, game_id: str, seat: int, at: float) -> None:
        with self._lock:
            seats = self._seen.setdefault(game_id, {})
            seats[seat] = max(at, seats.get(seat, 0.0))
            if len(self._seen) % 1000 == 0:  # now and then, forget old games
                old = self._clock() - KEPT_S
                self._seen = {g: s for g, s in self._seen.items() if max(s.values()) > old}

    def of(self, game_id: str) -> dict[int, float]:
        with self._lock:
            return dict(self._seen.get(game_id, {}))


class RedisPresence:
    def __init__(self, connection: Connection, keys: Keys) -> None:
        self.client = connection.client
        self.keys = keys

    @reachable()
    def seen(self, game_id: str, seat: int, at: float) -> None:
        key = self.keys.presence(game_id)
        with self.client.pipeline(transaction=False) as pipe:
            pipe.hset(key, str(seat), repr(at))
            pipe.expire(key, KEPT_S)
            pipe.execute()

    @reachable()
    def of(self, game_id: str) -> dict[int, float]:
        found = self.client.hgetall(self.keys.presence(game_id))
        return {int(seat): float(at) for seat, at in found.items()}
