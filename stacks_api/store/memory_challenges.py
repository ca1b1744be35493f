"""Challenges in the embedded store: dicts under one lock."""

from __future__ import annotations

import threading

from ..model.record import JSON
from .memory_seeks import KEEP_CLOSED_S


class MemoryChallenges:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._all: dict[str, JSON] = {}

    def add(self, challenge: JSON, most: int) -> str | None:
        now = challenge["created_at"]
        with self._lock:
            self._forget(now)
            live = [c for c in self._all.values() if c["from"] == challenge["from"]
                    and c["status"] == "pending" and c["expires_at"] > now]  # fmt: skip
            if any(c["to"] == challenge["to"] for c in live):
                return "pending"
            if len(live) >= most:
                return "limit"
            self._all[challenge["id"]] = dict(challenge)
            return None

    def get(self, challenge_id: str) -> JSON | None:
        with self._lock:
            found = self._all.get(challenge_id)
            return None if found is None else dict(found)

    def of(self, player_id: str) -> list[JSON]:
        with self._lock:
            mine = [dict(c) for c in self._all.values() if player_id in (c["from"], c["to"])]
        return sorted(mine, key=lambda c: (c["created_at"], c["id"]), reverse=True)

    def settle(self, challenge_id: str, status: str, fields: JSON) -> JSON | None:
        with self._lock:
            found = self._all.get(challenge_id)
            if found is None:
                return None
            if found["status"] == "pending":
                found.update(fields, status=status)
            return dict(found)

    def _forget(self, now: float) -> None:
        old = [i for i, c in self._all.items() if c["expires_at"] < now - KEEP_CLOSED_S]
        for challenge_id in old:
            del self._all[challenge_id]
