"""Quick pairing's seeks in the embedded store: dicts under one lock."""

from __future__ import annotations

import threading

from ..model.record import JSON

KEEP_CLOSED_S = 3600.0  # a closed seek can still be read (its game, its end) this long


class MemorySeeks:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seeks: dict[str, JSON] = {}
        self._players: dict[str, str] = {}  # player id -> their latest seek
        self._pools: dict[str, list[str]] = {}  # pool -> waiting seek ids, oldest first

    def add(self, seek: JSON) -> JSON | None:
        with self._lock:
            held = self._seeks.get(self._players.get(seek["player_id"], ""))
            if held is not None and held["status"] == "waiting":
                return dict(held)
            self._seeks[seek["id"]] = dict(seek)
            self._players[seek["player_id"]] = seek["id"]
            self._pools.setdefault(seek["pool"], []).append(seek["id"])
            return None

    def get(self, seek_id: str) -> JSON | None:
        with self._lock:
            found = self._seeks.get(seek_id)
            return None if found is None else dict(found)

    def latest(self, player_id: str) -> JSON | None:
        with self._lock:
            found = self._seeks.get(self._players.get(player_id, ""))
            return None if found is None else dict(found)

    def waiting(self, pool: str) -> list[JSON]:
        with self._lock:
            return [dict(self._seeks[i]) for i in self._pools.get(pool, [])]

    def pools(self) -> list[str]:
        with self._lock:
            return list(self._pools)

    def pair(self, seek_ids: list[str], game_id: str, now: float) -> bool:
        with self._lock:
            seeks = [self._seeks.get(i) for i in seek_ids]
            if any(s is None or s["status"] != "waiting" for s in seeks):
                return False
            for seat, seek in enumerate(seeks):
                assert seek is not None
                seek.update(status="paired", game_id=game_id, seat=seat, group=list(seek_ids))
                self._closed(seek, now)
            return True

    def close(self, seek_id: str, status: str, now: float) -> JSON | None:
        with self._lock:
            seek = self._seeks.get(seek_id)
            if seek is None:
                return None
            if seek["status"] == "waiting":
                seek["status"] = status
                self._closed(seek, now)
            return dict(seek)

    def _closed(self, seek: JSON, now: float) -> None:
        """Take a seek that no longer waits out of its pool, and forget seeks closed
        long ago."""
        seek["closed_at"] = now
        self._pools[seek["pool"]].remove(seek["id"])
        old = [i for i, s in self._seeks.items() if s.get("closed_at", now) < now - KEEP_CLOSED_S]
        for seek_id in old:
            gone = self._seeks.pop(seek_id)
            if self._players.get(gone["player_id"]) == seek_id:
                del self._players[gone["player_id"]]
