"""Quick pairing's seeks in the embedded store: values under one lock."""

from __future__ import annotations

import threading
from dataclasses import replace

from ..model.seeks import Seek

KEEP_CLOSED_S = 3600.0  # a closed seek can still be read (its game, its end) this long


class MemorySeeks:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seeks: dict[str, Seek] = {}
        self._players: dict[str, str] = {}  # player id -> their latest seek
        self._pools: dict[str, list[str]] = {}  # pool -> waiting seek ids, oldest first

    def add(self, seek: Seek) -> Seek | None:
        with self._lock:
            held = self._seeks.get(self._players.get(seek.player_id, ""))
            if held is not None and held.waiting:
                return held
            self._seeks[seek.id] = seek
            self._players[seek.player_id] = seek.id
            self._pools.setdefault(seek.pool, []).append(seek.id)
            return None

    def get(self, seek_id: str) -> Seek | None:
        with self._lock:
            return self._seeks.get(seek_id)

    def latest(self, player_id: str) -> Seek | None:
        with self._lock:
            return self._seeks.get(self._players.get(player_id, ""))

    def waiting(self, pool: str) -> list[Seek]:
        with self._lock:
            return [self._seeks[i] for i in self._pools.get(pool, [])]

    def pools(self) -> list[str]:
        with self._lock:
            return list(self._pools)

    def pair(self, seek_ids: list[str], game_id: str, now: float) -> bool:
        with self._lock:
            seeks = [self._seeks.get(i) for i in seek_ids]
            if any(s is None or not s.waiting for s in seeks):
                return False
            for seat, seek in enumerate(seeks):
                assert seek is not None
                paired = replace(seek, status="paired", game_id=game_id, seat=seat,
                                 group=tuple(seek_ids))  # fmt: skip
                self._closed(paired, now)
            return True

    def close(self, seek_id: str, status: str, now: float) -> Seek | None:
        with self._lock:
            seek = self._seeks.get(seek_id)
            if seek is None or not seek.waiting:
                return seek
            return self._closed(replace(seek, status=status), now)

    def _closed(self, seek: Seek, now: float) -> Seek:
        """Keep a seek that no longer waits, out of its pool, and forget seeks closed
        long ago."""
        closed = self._seeks[seek.id] = replace(seek, closed_at=now)
        self._pools[seek.pool].remove(seek.id)
        old = [i for i, s in self._seeks.items()
               if s.closed_at is not None and s.closed_at < now - KEEP_CLOSED_S]  # fmt: skip
        for seek_id in old:
            gone = self._seeks.pop(seek_id)
            if self._players.get(gone.player_id) == seek_id:
                del self._players[gone.player_id]
        return closed
