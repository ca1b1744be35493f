"""One Redis subscription per process, fanned out to every event feed it serves.

Each write PUBLISHes its events on the game's channel in the same atomic script as the
state. A process holds one pattern subscription to every game's channel and
hands each message to the feeds of that game open in this process, so an open
event stream costs no Redis connection of its own and a wake-up costs no read.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
from typing import Any

import redis
from redis.exceptions import RedisError

from ..record import Event
from . import StoreUnavailable
from .keys import Keys

log = logging.getLogger(__name__)
READY_WAIT_S = 5.0
# Batches a subscription holds for a reader who has not taken them yet. A reader
# this far behind is stuck (its socket is full): it is dropped rather than let
# grow without bound, and its client resumes from its Last-Event-ID.
INBOX_LIMIT = 256


class Lost:
    """Put in a subscription's queue when the subscription to Redis broke."""


class Wake:
    """Put in a subscription's queue to end a wait early (nothing was published)."""


class Subscription:
    """What one feed receives: batches of a game's events, as they are published."""

    def __init__(self, broadcaster: Broadcaster, game_id: str) -> None:
        self.game_id = game_id
        self.inbox: queue.Queue[list[Event] | Lost | Wake] = queue.Queue(INBOX_LIMIT)
        self.overrun = False
        self._broadcaster = broadcaster

    def deliver(self, item: list[Event] | Lost | Wake) -> None:
        """Hand ``item`` to the reader without ever waiting for it."""
        try:
            self.inbox.put_nowait(item)
        except queue.Full:
            if not isinstance(item, Wake):
                self.overrun = True  # the reader ends at its next take

    def take(self, timeout: float) -> list[list[Event]]:
        """The batches published since the last call, waiting up to ``timeout`` for one
        (a wake-up may end the wait with none).

        Raises StoreUnavailable if the subscription broke or overflowed (messages
        may be lost).
        """
        try:
            items = [self.inbox.get(timeout=timeout)]
        except queue.Empty:
            return []
        while True:
            try:
                items.append(self.inbox.get_nowait())
            except queue.Empty:
                break
        if self.overrun:
            raise StoreUnavailable("the reader fell too far behind its game's events")
        if any(isinstance(item, Lost) for item in items):
            raise StoreUnavailable("the event subscription was lost")
        return [item for item in items if isinstance(item, list)]

    def close(self) -> None:
        self._broadcaster.unsubscribe(self)


class Broadcaster:
    """The process's pattern subscription and the feeds waiting on it."""

    def __init__(self, client: redis.Redis, keys: Keys) -> None:
        self._client, self._keys = client, keys
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[Subscription]] = {}
        self._ready = threading.Event()
        self._listener: threading.Thread | None = None

    def subscribe(self, game_id: str) -> Subscription:
        """Start receiving the game's events; published from this moment on."""
        subscription = Subscription(self, game_id)
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add(subscription)
            if self._listener is None or not self._listener.is_alive():
                # A thread, or under gevent a greenlet: it only waits on a socket.
                self._listener = threading.Thread(
                    target=self._listen, name="stacks-api-broadcast", daemon=True
                )
                self._listener.start()
        if not self._ready.wait(READY_WAIT_S):
            subscription.close()
            raise StoreUnavailable("could not subscribe to game events")
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            waiting = self._subscribers.get(subscription.game_id)
            if waiting is not None:
                waiting.discard(subscription)
                if not waiting:
                    del self._subscribers[subscription.game_id]

    def _listen(self) -> None:
        """Deliver messages until the subscription breaks; the next subscribe starts
        a new listener (feeds waiting now end, and their clients reconnect)."""
        pubsub = self._client.pubsub()  # type: ignore[no-untyped-call]
        try:
            pubsub.psubscribe(self._keys.every_channel())
            while True:
                message = pubsub.get_message(timeout=1.0)
                if message is not None:
                    self._dispatch(message)
        except (RedisError, OSError) as err:
            log.warning("event subscription lost: %s", type(err).__name__)
        finally:
            self._ready.clear()
            self._fail_all()
            with contextlib.suppress(RedisError, OSError):
                pubsub.close()

    def _dispatch(self, message: dict[str, Any]) -> None:
        if message["type"] == "psubscribe":
            self._ready.set()
            return
        if message["type"] != "pmessage":
            return
        channel = message["channel"]
        game_id = self._keys.game_of_channel(
            channel.decode() if isinstance(channel, bytes) else channel
        )
        with self._lock:
            waiting = list(self._subscribers.get(game_id, ()))
        if waiting:
            events: list[Event] = json.loads(message["data"])  # decoded once for all feeds
            for subscription in waiting:
                subscription.deliver(events)

    def _fail_all(self) -> None:
        with self._lock:
            everyone = [s for group in self._subscribers.values() for s in group]
            self._subscribers.clear()
        for subscription in everyone:
            subscription.deliver(Lost())
