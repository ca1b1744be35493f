"""Jobs for the workers in the embedded store (hints, analyses): asked ones wait in
a queue, results are kept a while (the same contract as ``redis_jobs``)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from ..model.record import JSON

KEEP_S = 600.0  # a result is kept this long (a hint's version is gone by then)
ASKED_S = 60.0  # a job asked again after this is queued again (its worker died)


class MemoryJobs:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._done: dict[str, tuple[JSON, float]] = {}
        self._asked: dict[str, float] = {}
        self._queue: deque[str] = deque()

    def get(self, key: str) -> JSON | None:
        with self._lock:
            found = self._done.get(key)
            return None if found is None or found[1] <= self._clock() else dict(found[0])

    def ask(self, key: str) -> bool:
        now = self._clock()
        with self._lock:
            if self._asked.get(key, 0.0) > now:
                return False
            self._asked = {k: until for k, until in self._asked.items() if until > now}
            self._asked[key] = now + ASKED_S
            self._queue.append(key)
            return True

    def claim(self, limit: int) -> list[str]:
        with self._lock:
            return [self._queue.popleft() for _ in range(min(limit, len(self._queue)))]

    def put(self, key: str, result: JSON) -> None:
        now = self._clock()
        with self._lock:
            self._done = {k: kept for k, kept in self._done.items() if kept[1] > now}
            self._done[key] = (dict(result), now + KEEP_S)
