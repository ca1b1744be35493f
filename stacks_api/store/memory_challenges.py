"""Challenges in the embedded store: values under one lock."""

from __future__ import annotations

import threading

from ..model.challenges import Answer, Challenge
from .memory_seeks import KEEP_CLOSED_S


class MemoryChallenges:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._all: dict[str, Challenge] = {}

    def add(self, challenge: Challenge, most: int) -> str | None:
        now = challenge.created_at
        with self._lock:
            self._forget(now)
            live = [c for c in self._all.values() if c.challenger == challenge.challenger
                    and c.pending and c.expires_at > now]  # fmt: skip
            if any(c.challenged == challenge.challenged for c in live):
                return "pending"
            if len(live) >= most:
                return "limit"
            self._all[challenge.id] = challenge
            return None

    def get(self, challenge_id: str) -> Challenge | None:
        with self._lock:
            return self._all.get(challenge_id)

    def of(self, player_id: str) -> list[Challenge]:
        with self._lock:
            mine = [c for c in self._all.values() if player_id in (c.challenger, c.challenged)]
        return sorted(mine, key=lambda c: (c.created_at, c.id), reverse=True)

    def settle(self, challenge_id: str, status: str, answer: Answer) -> Challenge | None:
        with self._lock:
            found = self._all.get(challenge_id)
            if found is None or not found.pending:
                return found
            settled = self._all[challenge_id] = found.answered(status, answer)
            return settled

    def _forget(self, now: float) -> None:
        old = [i for i, c in self._all.items() if c.expires_at < now - KEEP_CLOSED_S]
        for challenge_id in old:
            del self._all[challenge_id]
