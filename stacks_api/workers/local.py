"""The in-process workers used with the embedded store.

Threads (greenlets under gevent) take games from a queue and advance them;
one more thread wakes games whose deadline has come. The bots' thinking itself
goes through ``offload``, so under gevent it runs on a real OS thread.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable

from ..store import StoreUnavailable

log = logging.getLogger(__name__)
_STOP = "\0stop"  # no game id looks like this
RETRY_AFTER_S = 1.0  # a game whose store failed mid-job is tried again this much later


class LocalWorkers:
    """A queue of games to advance, served by ``count`` threads, and a timer."""

    def __init__(self, count: int = 2, clock: Callable[[], float] = time.time) -> None:
        self._count, self._clock = count, clock
        self._queue: queue.Queue[str] = queue.Queue()
        self._queued: set[str] = set()
        self._lock = threading.Lock()
        self._timers: list[tuple[float, int, str]] = []
        self._timers_changed = threading.Condition()
        self._order = itertools.count()
        self._advance: Callable[[str], None] | None = None
        self._threads: list[threading.Thread] = []
        self._started = self._stopping = False

    def start(self, advance: Callable[[str], None]) -> None:
        """Serve the queue with ``advance(game_id)`` (threads start with the first job)."""
        self._advance = advance

    def stop(self) -> None:
        """Let the threads end once the job under way is done."""
        with self._timers_changed:
            self._stopping = True
            self._timers_changed.notify()
        for _ in self._threads:
            self._queue.put(_STOP)

    def wake(self, game_id: str, version: int) -> None:
        with self._lock:
            if game_id in self._queued or self._stopping:
                return  # already waiting: the worker reads the latest state anyway
            self._queued.add(game_id)
            self._start_threads()
        self._queue.put(game_id)

    def wake_at(self, game_id: str, version: int, at: float) -> None:
        with self._lock:
            self._start_threads()
        with self._timers_changed:
            heapq.heappush(self._timers, (at, next(self._order), game_id))
            self._timers_changed.notify()

    def _start_threads(self) -> None:
        if self._started or self._stopping:
            return
        self._started = True
        for n in range(self._count):
            self._threads.append(
                threading.Thread(target=self._work, name=f"stacks-api-bots-{n}", daemon=True)
            )
        for thread in self._threads:
            thread.start()
        threading.Thread(target=self._time, name="stacks-api-timer", daemon=True).start()

    def idle(self) -> bool:
        """Whether no game waits to be advanced (for tests)."""
        with self._lock:
            return not self._queued

    def _work(self) -> None:
        while (game_id := self._queue.get()) != _STOP:
            with self._lock:
                self._queued.discard(game_id)
            try:
                assert self._advance is not None
                self._advance(game_id)
            except StoreUnavailable:
                self.wake_at(game_id, -1, self._clock() + RETRY_AFTER_S)
            except Exception:  # one game's failure must not stop the worker
                log.exception("advancing a game failed")

    def _time(self) -> None:
        while True:
            with self._timers_changed:
                while not self._stopping and (
                    not self._timers or self._timers[0][0] > self._clock()
                ):
                    wait = self._timers[0][0] - self._clock() if self._timers else None
                    self._timers_changed.wait(wait)
                if self._stopping:
                    return
                _, _, game_id = heapq.heappop(self._timers)
            self.wake(game_id, -1)
