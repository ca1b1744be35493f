"""A small cache of recent answers, for reads that many clients repeat (the lobby)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class TtlCache(Generic[V]):
    """Answers kept for ``ttl_s`` seconds, at most ``size`` of them (the oldest go first).

    Computing happens outside the lock: two requests that miss together both
    compute, which costs a little and never blocks one behind another.
    """

    def __init__(self, ttl_s: float, size: int = 256, clock: Callable[[], float] = time.monotonic):
        self.ttl_s, self.size, self.clock = ttl_s, size, clock
        self._kept: OrderedDict[Hashable, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        if self.ttl_s <= 0:
            return compute()
        now = self.clock()
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] > now:
                return kept[1]
        value = compute()
        with self._lock:
            self._kept[key] = (now + self.ttl_s, value)
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value

    def forget(self, key: Hashable) -> None:
        """Drop ``key``'s answer: the next ``get`` computes it anew."""
        with self._lock:
            self._kept.pop(key, None)


class LastKnown(Generic[V]):
    """Each key's last answer, given back only while computing it anew fails with
    ``failing`` (stale-if-error): what was true before an outage stays usable during
    it, and nothing older is served once answers come again. At most ``size`` keys
    (the least recently asked go first)."""

    def __init__(self, failing: type[Exception], size: int = 4096) -> None:
        self.failing, self.size = failing, size
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        try:
            value = compute()
        except self.failing:
            with self._lock:
                if key in self._kept:
                    return self._kept[key]
            raise
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value
