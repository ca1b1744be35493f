"""Budgets: how much of something one subject may start in a moving window
(``3/minute;20/hour``), counted with ``limits`` in the store's Redis when the
server runs on Redis (every process shares the count), in memory otherwise."""

from __future__ import annotations

from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter


class Budgets:
    def __init__(self, redis_url: str | None, prefix: str) -> None:
        self.prefix = prefix
        self._limiter = MovingWindowRateLimiter(storage_from_string(redis_url or "memory://"))

    def take(self, budget: str, subject: str, rule: str) -> bool:
        """Spend one of ``subject``'s ``budget`` if every window of ``rule`` has room;
        whether it did (two processes at once may both spend the last one)."""
        items = parse_many(rule)
        names = (self.prefix, "budget", budget, subject)
        if not all(self._limiter.test(item, *names) for item in items):
            return False
        for item in items:
            self._limiter.hit(item, *names)
        return True
