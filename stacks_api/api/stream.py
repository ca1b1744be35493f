"""Server-Sent Events: a game's public events as they happen.

Each event is one SSE message whose data is the event's JSON. Only the last
event of each version carries ``id: <version>``, so a reconnecting client's
Last-Event-ID always names a version it received whole, and the resume (every
event after it) can neither split nor repeat a version.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import math
import os
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import request

from ..model.events import Event, ends_game
from ..runtime.offload import gevent_active
from ..service.ports import EventFeed, Unavailable
from ..service.revocations import Watch

log = logging.getLogger(__name__)

REPORT_EVERY_S = 2.0  # how often a process tells the store its count of open streams
PROCESS = f"{socket.gethostname()}:{os.getpid()}"
_open = [0]  # streams open in this process
_open_lock = threading.Lock()
_reporter: list[threading.Thread] = []


def open_streams() -> int:
    """How many event streams this process is serving now."""
    return _open[0]


def server_streams(report: Callable[[str, int], int]) -> int:
    """The server's open streams over all its processes: ``report(process, count)``
    records this process's count and answers the total (``GameService.open_streams``)."""
    return report(PROCESS, _open[0])


def _count(change: int, report: Callable[[str, int], int]) -> None:
    with _open_lock:
        _open[0] += change
        if not _reporter or not _reporter[0].is_alive():
            # A thread, or under gevent a greenlet: it only sleeps and writes.
            _reporter[:] = [threading.Thread(target=_report, args=(report,), daemon=True)]
            _reporter[0].start()


@contextlib.contextmanager
def counted(report: Callable[[str, int], int]) -> Iterator[None]:
    """One more open stream in this process while it lasts: a game socket counts too."""
    _count(+1, report)
    try:
        yield
    finally:
        _count(-1, report)


def _report(report: Callable[[str, int], int]) -> None:
    """Keep this process's count fresh in the store, so any process can sum them."""
    while True:
        with contextlib.suppress(Unavailable):  # health says so; the next one retries
            report(PROCESS, _open[0])
        time.sleep(REPORT_EVERY_S)


# The JSON text of recently sent events, by the identity of the event object: a
# published batch is decoded once per process and the same objects reach every
# stream of the game, so 10,000 streams cost one ``json.dumps`` per event, not
# 10,000. Each entry keeps its event alive, so an id is never reused while cached.
_texts: dict[int, tuple[Event, str]] = {}
_TEXTS_KEPT = 4096


def _event_text(event: Event) -> str:
    cached = _texts.get(id(event))
    if cached is not None and cached[0] is event:
        return cached[1]
    text = json.dumps(event)
    if len(_texts) >= _TEXTS_KEPT:
        _texts.clear()
    _texts[id(event)] = (event, text)
    return text


def format_events(events: list[Event]) -> str:
    lines = []
    for i, event in enumerate(events):
        last_of_version = i + 1 == len(events) or events[i + 1]["version"] != event["version"]
        lines.append(f"data: {_event_text(event)}\n")
        if last_of_version:
            lines.append(f"id: {event['version']}\n")
        lines.append("\n")
    return "".join(lines)


def wants_stream() -> bool:
    """Whether the request asks for the event stream rather than JSON."""
    choice = request.accept_mimetypes.best_match(["application/json", "text/event-stream"])
    return choice == "text/event-stream"


class Hangup:
    """Tells whether the client of a streamed response has hung up, and when it may have.

    gunicorn hands its socket to the app: the client has hung up when the socket is
    readable and a peek reads nothing. Under gevent a watcher on the socket calls
    ``on_readable`` the moment that happens, so a stream wakes for its events and
    keep-alives only, never to poll, and an idle server with 10,000 streams stays
    idle. The check is a ``poll`` (``select`` refuses descriptors above 1023,
    which a busy worker has).
    Servers that hide the socket (Flask's test client) never report a hang-up:
    their streams end by themselves.
    """

    def __init__(self, environ: dict[str, Any]) -> None:
        sock = environ.get("gunicorn.socket")
        self._sock = sock if isinstance(sock, socket.socket) else None
        self._watcher: Any = None

    def gone(self) -> bool:
        if self._sock is None:
            return False
        try:
            poller = _poll_class()()
            poller.register(self._sock.fileno(), select.POLLIN)
            if not poller.poll(0):
                return False
            return self._sock.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True

    def on_readable(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once, as soon as the client sends anything or hangs up."""
        if self._sock is None or not gevent_active():
            return
        import gevent

        def fired() -> None:  # runs in gevent's hub, which must never block: hand off
            self.stop()
            gevent.spawn(callback)

        self._watcher = gevent.get_hub().loop.io(self._sock.fileno(), 1)  # 1: readable
        self._watcher.start(fired)

    def stop(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None


@functools.cache
def _poll_class() -> Callable[[], Any]:
    """The operating system's ``select.poll`` (gevent's monkey-patching removes it)."""
    if gevent_active():
        from gevent.monkey import get_original

        return get_original("select", "poll")  # type: ignore[no-any-return]
    return select.poll


def event_stream(
    follow: Callable[[], tuple[EventFeed, bool]],
    keepalive_s: float,
    max_s: float,
    report: Callable[[str, int], int],
    hangup: Hangup | None = None,
    watching: Callable[[float | None], None] | None = None,
    presence: Callable[[], list[Event]] | None = None,
    guard: Callable[[Callable[[], None]], Watch | None] | None = None,
) -> Iterator[str]:
    """The events of ``follow()``'s feed until the game ends, the client hangs up, or
    ``max_s`` passes.

    A comment line every ``keepalive_s`` keeps proxies from closing an idle
    stream; ``max_s`` bounds how long one stream lives (the browser reconnects
    by itself, with Last-Event-ID). The store failing ends the stream cleanly:
    the client reconnects and resumes. ``watching(until)``, if given, counts the
    stream as a spectator's until then (refreshed each ``keepalive_s``; None at
    the end). ``presence()``, if given, is asked at the start and with each
    keep-alive for the table's ``presence`` changes since it was last asked (and
    marks the stream's own seat seen): they are sent without an id, as they are
    never stored. ``guard(interrupt)``, if given, watches the credential the stream
    was opened with: once it is revoked the stream is woken and ends.
    """
    try:
        feed, ended = follow()  # subscribes only once the response starts
    except (Unavailable, KeyError):
        return  # the client's reconnection will get a clear answer
    _count(+1, report)
    if hangup is not None:
        hangup.on_readable(feed.interrupt)
    watch = None if guard is None else guard(feed.interrupt)
    watched = -math.inf
    try:
        if watching is not None:  # counted from the stream's first line on
            watched = time.monotonic()
            _quietly(watching, time.time() + 3 * keepalive_s)
        yield "retry: 1000\n\n"
        if presence is not None and (told := _unstored(_quietly_ask(presence))):
            yield told
        start = last_sent = asked = time.monotonic()
        while (now := time.monotonic()) - start < max_s:
            if watching is not None and now - watched >= keepalive_s:
                watched = now
                _quietly(watching, time.time() + 3 * keepalive_s)
            if presence is not None and now - asked >= keepalive_s:
                asked = now
                told = _unstored(_quietly_ask(presence))
                if told:
                    yield told
                    last_sent = now
            # One wake-up per event, keep-alive or hang-up: no polling.
            due = min(last_sent, asked if presence is not None else last_sent) + keepalive_s
            wait = 0.0 if ended else min(due - now, max_s - (now - start))
            try:
                batch = feed.next_batch(timeout=max(0.0, wait))
            except Unavailable as err:
                log.warning("event stream ended: %s", err)
                return
            if not batch and hangup is not None and hangup.gone():
                return  # woken by the hang-up (a write to a gone client fails anyway)
            if watch is not None and watch.revoked:
                return  # its key or token was revoked
            now = time.monotonic()
            if batch:
                yield format_events(batch)
                last_sent = now
                if any(ends_game(e) for e in batch):
                    return
            elif ended:
                return  # nothing more will ever come
            elif now - last_sent >= keepalive_s:
                yield ": keep-alive\n\n"
                last_sent = now
    finally:
        if presence is not None:  # its end is the seat's last sighting
            _quietly_ask(presence)
        if watch is not None:
            watch.close()
        if hangup is not None:
            hangup.stop()
        if watching is not None:
            _quietly(watching, None)
        _count(-1, report)
        feed.close()


def _unstored(events: list[Event]) -> str:
    """Events that are never stored (presence): SSE messages without an id."""
    return "".join(f"data: {json.dumps(event)}\n\n" for event in events)


def _quietly_ask(presence: Callable[[], list[Event]]) -> list[Event]:
    """The presence events since the last ask: a store failure costs only those."""
    try:
        return presence()
    except Unavailable:
        return []


def _quietly(watching: Callable[[float | None], None], until: float | None) -> None:
    """Count a spectator's stream (or stop): a store failure costs only the count."""
    with contextlib.suppress(Unavailable):
        watching(until)
