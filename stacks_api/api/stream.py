"""Server-Sent Events: a game's public events as they happen.

Each event is one SSE message whose data is the event's JSON. Only the last
event of each version carries ``id: <version>``, so a reconnecting client's
Last-Event-ID always names a version it received whole, and the resume (every
event after it) can neither split nor repeat a version.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from ..store import Event, GameStore

ENDING_EVENTS = frozenset({"game_over", "cancelled"})


def format_events(events: list[Event]) -> str:
    lines = []
    for i, event in enumerate(events):
        last_of_version = i + 1 == len(events) or events[i + 1]["version"] != event["version"]
        lines.append(f"data: {json.dumps(event)}\n")
        if last_of_version:
            lines.append(f"id: {event['version']}\n")
        lines.append("\n")
    return "".join(lines)


def event_stream(
    store: GameStore, game_id: str, after: int, keepalive_s: float, max_s: float
) -> Iterator[str]:
    """Events after version ``after`` until the game ends or ``max_s`` passes.

    A comment line every ``keepalive_s`` keeps proxies from closing an idle
    stream; ``max_s`` bounds how long one stream holds a worker thread (the
    browser reconnects by itself, with Last-Event-ID).
    """
    feed = store.feed(game_id, after)
    try:
        yield "retry: 1000\n\n"
        record = store.load(game_id)
        ended = record is None or record["status"] in ("finished", "cancelled")
        start = last_sent = time.monotonic()
        while time.monotonic() - start < max_s:
            batch = feed.next_batch(timeout=min(1.0, keepalive_s))
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
        feed.close()
