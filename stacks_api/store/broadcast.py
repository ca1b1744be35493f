"""Live events: each process subscribes to the channels of the games its streams follow.

Each write publishes its events on the game's channel in the same atomic script
as the state. A process keeps one subscription connection per Redis node it
needs (one on a single Redis; on a cluster, one per master that holds a
followed game) and subscribes there to exactly the channels of the games it
serves: ``SUBSCRIBE`` on a single Redis, sharded ``SSUBSCRIBE`` on a cluster,
where a message then travels only within its shard. It hands each message to
every feed of that game in the process, so an open event stream costs no Redis
connection of its own and a wake-up costs no read.

A broken connection ends every feed it served (``Lost``); their clients
reconnect and resume from their Last-Event-ID, and the next subscription finds
the node that holds the game's slot now.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

import redis
from redis.utils import str_if_bytes

from ..model import jsontext
from ..model.events import Event
from . import StoreUnavailable
from .redis_errors import FAILURES

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
    """What one feed receives: batches of a game's events, as they are published.

    An inbox (a deque, which is safe between threads) and a flag set on every
    delivery: lighter than a ``queue.Queue``, and delivery is the hot loop of a
    game with thousands of watchers.
    """

    def __init__(self, broadcaster: Broadcaster, channel: str) -> None:
        self.channel = channel
        self.overrun = False
        self._inbox: deque[list[Event] | Lost | Wake] = deque()
        self._delivered = threading.Event()
        self._broadcaster = broadcaster

    def deliver(self, item: list[Event] | Lost | Wake) -> None:
        """Hand ``item`` to the reader without ever waiting for it."""
        if len(self._inbox) < INBOX_LIMIT:
            self._inbox.append(item)
        elif not isinstance(item, Wake):
            self.overrun = True  # the reader ends at its next take
        self._delivered.set()

    def take(self, timeout: float) -> list[list[Event]]:
        """The batches published since the last call, waiting up to ``timeout`` for one
        (a wake-up may end the wait with none).

        Raises StoreUnavailable if the subscription broke or overflowed (messages
        may be lost).
        """
        if not self._inbox and not self._delivered.wait(timeout):
            return []
        # Cleared before draining: a delivery from now on sets it again, so none is
        # left waiting unseen (at worst the next take wakes to an empty inbox).
        self._delivered.clear()
        items = []
        while self._inbox:
            items.append(self._inbox.popleft())
        if self.overrun:
            raise StoreUnavailable("the reader fell too far behind its game's events")
        if any(isinstance(item, Lost) for item in items):
            raise StoreUnavailable("the event subscription was lost")
        return [item for item in items if isinstance(item, list)]

    def close(self) -> None:
        self._broadcaster.unsubscribe(self)


# Where a channel is served: the name of the node that holds it, and a client of
# that node (a cluster's node, or the one Redis).
Route = Callable[[str], tuple[str, redis.Redis]]


class Broadcaster:
    """The process's subscriptions, one connection per node, and the feeds on them."""

    def __init__(self, route: Route, sharded: bool) -> None:
        self._route, self._sharded = route, sharded
        self._lock = threading.Lock()
        self._listeners: dict[str, Listener] = {}

    def subscribe(self, channel: str) -> Subscription:
        """Start receiving the channel's events; published from this moment on.

        A connection found broken only now (Redis restarted since its last
        message) costs one more try, on a new connection."""
        for _ in range(2):
            subscription = Subscription(self, channel)
            try:
                node, client = self._route(channel)
            except FAILURES as err:
                raise StoreUnavailable(type(err).__name__) from err
            with self._lock:
                listener = self._listeners.get(node)
                if listener is None or listener.dead:
                    listener = self._listeners[node] = Listener(client, self._sharded, node)
                confirmed = listener.add(subscription)
            if confirmed.wait(READY_WAIT_S) and not listener.dead:
                return subscription
            subscription.close()
        raise StoreUnavailable("could not subscribe to game events")

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            listeners = list(self._listeners.values())
        for listener in listeners:
            listener.remove(subscription)


class Listener:
    """One subscription connection to one node, and the feeds of each channel on it.

    Its thread (under gevent, a greenlet) alone reads the connection; other
    threads only send (un)subscribe commands, which redis-py serialises.
    """

    def __init__(self, client: redis.Redis, sharded: bool, node: str) -> None:
        self.node, self.dead = node, False
        self._pubsub = pubsub = client.pubsub()
        # redis-py types subscribe but not its sharded twins: one signature for both.
        self._subscribe: Callable[[str], object] = (
            pubsub.ssubscribe if sharded else pubsub.subscribe
        )
        self._unsubscribe: Callable[[str], object] = (
            pubsub.sunsubscribe if sharded else pubsub.unsubscribe
        )
        self._lock = threading.Lock()
        self._channels: dict[str, set[Subscription]] = {}
        self._confirmed: dict[str, threading.Event] = {}
        threading.Thread(target=self._listen, name=f"events-{node}", daemon=True).start()

    def add(self, subscription: Subscription) -> threading.Event:
        """Add a feed; the event is set once Redis confirmed the channel's subscription."""
        channel = subscription.channel
        with self._lock:
            followers = self._channels.setdefault(channel, set())
            followers.add(subscription)
            first = len(followers) == 1
            if first:
                self._confirmed[channel] = threading.Event()
            confirmed = self._confirmed[channel]
        if first:
            try:
                self._subscribe(channel)
            except FAILURES as err:
                self._fail(err)
        return confirmed

    def remove(self, subscription: Subscription) -> None:
        channel = subscription.channel
        with self._lock:
            followers = self._channels.get(channel)
            if followers is None or subscription not in followers:
                return
            followers.discard(subscription)
            last = not followers
            if last:
                del self._channels[channel]
                self._confirmed.pop(channel, None)
        if last and not self.dead:
            with contextlib.suppress(*FAILURES):
                self._unsubscribe(channel)

    def _listen(self) -> None:
        """Deliver messages until the connection breaks."""
        try:
            while not self.dead:
                message = self._pubsub.get_message(timeout=1.0)
                if message is not None:
                    self._dispatch(message)
        except FAILURES as err:
            self._fail(err)
        finally:
            with contextlib.suppress(*FAILURES):
                self._pubsub.close()

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind, channel = message["type"], str_if_bytes(message["channel"])
        if kind in ("subscribe", "ssubscribe"):
            with self._lock:
                confirmed = self._confirmed.get(channel)
            if confirmed is not None:
                confirmed.set()
            return
        if kind not in ("message", "smessage"):
            return
        with self._lock:
            waiting = list(self._channels.get(channel, ()))
        if waiting:
            events: list[Event] = jsontext.loads(message["data"])  # decoded once for all feeds
            for subscription in waiting:
                subscription.deliver(events)

    def _fail(self, err: BaseException) -> None:
        """End every feed on this connection: their clients resume elsewhere."""
        if not self.dead:
            log.warning("event subscription to %s lost: %s", self.node, type(err).__name__)
        self.dead = True
        with self._lock:
            everyone = [s for group in self._channels.values() for s in group]
            waiting = list(self._confirmed.values())
            self._channels.clear()
            self._confirmed.clear()
        for subscription in everyone:
            subscription.deliver(Lost())
        for confirmed in waiting:
            confirmed.set()  # a subscriber waiting for Redis finds the listener dead
