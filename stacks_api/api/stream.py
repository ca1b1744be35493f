"""Server-Sent Events: a game's public events as they happen.

Each event is one SSE message whose data is the event's JSON. Only the last
event of each version carries ``id: <version>``, so a reconnecting client's
Last-Event-ID always names a version it received whole, and the resume (every
event after it) can neither split nor repeat a version.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import request

from ..record import Event
from ..service.ports import EventFeed, Unavailable

log = logging.getLogger(__name__)

ENDING_EVENTS = frozenset({"game_over", "cancelled"})
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


def _report(report: Callable[[str, int], int]) -> None:
    """Keep this process's count fresh in the store, so any process can sum them."""
    while True:
        with contextlib.suppress(Unavailable):  # health says so; the next one retries
            report(PROCESS, _open[0])
        time.sleep(REPORT_EVERY_S)


def format_events(events: list[Event]) -> str:
    lines = []
    for i, event in enumerate(events):
        last_of_version = i + 1 == len(events) or events[i + 1]["version"] != event["version"]
        lines.append(f"data: {json.dumps(event)}\n")
        if last_of_version:
            lines.append(f"id: {event['version']}\n")
        lines.append("\n")
    return "".join(lines)


def wants_stream() -> bool:
    """Whether the request asks for the event stream rather than JSON."""
    choice = request.accept_mimetypes.best_match(["application/json", "text/event-stream"])
    return choice == "text/event-stream"


def disconnect_probe(environ: dict[str, Any]) -> Callable[[], bool]:
    """A check, cheap enough to run every second, of whether the client hung up.

    gunicorn hands its socket to the app; the client has hung up when it is
    readable and a peek reads nothing. Servers that hide the socket (Flask's test
    client) get a probe that never says so: their streams end by themselves.
    """
    sock = environ.get("gunicorn.socket")
    if not isinstance(sock, socket.socket):
        return lambda: False

    def gone() -> bool:
        try:
            readable, _, _ = select.select([sock], [], [], 0)
            return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True

    return gone


def event_stream(
    follow: Callable[[], tuple[EventFeed, bool]],
    keepalive_s: float,
    max_s: float,
    report: Callable[[str, int], int],
    client_gone: Callable[[], bool] = lambda: False,
) -> Iterator[str]:
    """The events of ``follow()``'s feed until the game ends, the client hangs up, or
    ``max_s`` passes.

    A comment line every ``keepalive_s`` keeps proxies from closing an idle
    stream; ``max_s`` bounds how long one stream lives (the browser reconnects
    by itself, with Last-Event-ID). The store failing ends the stream cleanly:
    the client reconnects and resumes.
    """
    try:
        feed, ended = follow()  # subscribes only once the response starts
    except (Unavailable, KeyError):
        return  # the client's reconnection will get a clear answer
    _count(+1, report)
    try:
        yield "retry: 1000\n\n"
        start = last_sent = time.monotonic()
        while time.monotonic() - start < max_s and not client_gone():
            try:
                batch = feed.next_batch(timeout=min(1.0, keepalive_s))
            except Unavailable:
                log.warning("event stream ended: the store is unavailable")
                return
            now = time.monotonic()
            if batch:
                yield format_events(batch)
                last_sent = now
                if any(e["type"] in ENDING_EVENTS for e in batch):
                    return
            elif ended:
                return  # nothing more will ever come
            elif now - last_sent >= keepalive_s:
                yield ": keep-alive\n\n"
                last_sent = now
    finally:
        _count(-1, report)
        feed.close()
