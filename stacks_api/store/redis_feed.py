"""A game's live events on Redis: the process's shared subscription, with the game's
event list as the source of truth."""

from __future__ import annotations

from typing import Any

from ..model.events import Event
from .broadcast import Subscription, Wake
from .packing import unpack_events
from .redis_errors import reachable


class RedisFeed:
    """A game's events from a subscription to its channel, taken before the backlog
    is read, so an event written in between is never missed (one seen twice is
    dropped by its version).

    It remembers how far into the game's event list it has read (an element a
    write): published batches extend it directly, and only a gap makes it read
    Redis again, from where it stopped. Redis does not drop a message without
    dropping the connection, which ends every feed of the process (``Lost``), so a
    quiet feed needs no rereading.
    """

    def __init__(self, client: Any, key: str, subscription: Subscription, after: int) -> None:
        self._client, self._key, self._subscription = client, key, subscription
        self._index, self._last = 0, after
        self._pending = self._read_new()

    def next_batch(self, timeout: float) -> list[Event]:
        if self._pending:
            pending, self._pending = self._pending, []
            return pending
        batch: list[Event] = []
        for published in self._subscription.take(timeout):
            fresh = [e for e in published if e["version"] > self._last]
            if not fresh:
                continue  # already read from the list
            if fresh[0]["version"] != self._last + 1:
                batch += self._read_new()  # a gap: read what is missing
                continue
            batch += fresh
            self._index += 1  # one write's events: one element of the list
            self._last = fresh[-1]["version"]
        return batch

    def interrupt(self) -> None:
        self._subscription.deliver(Wake())

    def _read_new(self) -> list[Event]:
        with reachable():
            stored: list[Any] = self._client.lrange(self._key, self._index, -1)
        self._index += len(stored)
        unpacked = (e for element in stored for e in unpack_events(element))
        events = [e for e in unpacked if e["version"] > self._last]
        if events:
            self._last = events[-1]["version"]
        return events

    def close(self) -> None:
        self._subscription.close()
