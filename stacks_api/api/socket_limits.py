"""What a WebSocket may spend, counted per caller where the routes count theirs.

A socket's frames are counted against the caller's address (the key the HTTP
routes' limits use), in the store's budgets: in Redis when the server runs on
Redis, so every socket of one caller on every worker shares one count, and 60
sockets do not get 60 allowances. Sockets opened are counted per credential once
the hello names it (per address for a spectator): a person reconnecting after a
blip spends their own allowance, not that of everyone behind the same address.

When the budgets cannot be reached, each socket counts for itself in memory
until they can: a store outage neither stops play nor lifts every limit.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Protocol

from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

log = logging.getLogger(__name__)


class Budget(Protocol):
    """The store's budgets (``GameStore.budgets``)."""

    def take(self, budget: str, subject: str, rule: str) -> bool: ...


class CallerLimits:
    """One socket's view of its caller's limits (``Session`` spends them)."""

    def __init__(self, budgets: Budget, address: str, frames: str, opens: str) -> None:
        self.budgets, self.address = budgets, address
        self.frames, self.opens = frames, opens
        self._alone = MovingWindowRateLimiter(MemoryStorage())  # while budgets are away

    def frame(self) -> bool:
        return self._take("socket-frames", self.address, self.frames)

    def opened(self, token: str | None) -> bool:
        subject = self.address if token is None else _digest(token)
        return self._take("socket-opens", subject, self.opens)

    def _take(self, budget: str, subject: str, rule: str) -> bool:
        try:
            return self.budgets.take(budget, subject, rule)
        except Exception as err:  # the store is away: this socket's own count
            log.warning("socket limits counted alone: %s", err)
            return all(self._alone.hit(item, budget) for item in parse_many(rule))


def _digest(token: str) -> str:
    """A credential as a budget's subject: never its own text in a storage key."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]
