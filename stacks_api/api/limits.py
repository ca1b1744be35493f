"""Rate limits per client address, with Flask-Limiter (docs/api.md).

Limits apply to what creates work or storage, and to the reads that cost more
than a view: listing games, creating games and accounts, joining, acting,
opening event streams, reading records, histories and replayed positions. They
are counted in Redis when the server runs on Redis (so every worker and host
shares the count), in memory otherwise. A refusal is a 429 problem with
Retry-After and the RateLimit-* headers; every limited answer carries the
RateLimit-* headers.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, request
from flask_limiter import HeaderNames, Limiter
from flask_limiter.util import get_remote_address

from .stream import wants_stream

# (endpoint, method) -> the config key of its limit.
LIMITED = {
    ("games.Games", "GET"): "LIMIT_LIST",
    ("games.Games", "POST"): "LIMIT_CREATE",
    ("games.Players", "POST"): "LIMIT_JOIN",
    ("games.Rematch", "POST"): "LIMIT_JOIN",  # a claim takes a seat
    ("games.Actions", "POST"): "LIMIT_ACT",
    ("games.Events", "GET"): "LIMIT_STREAM",
    ("games.socket", "GET"): "LIMIT_SOCKET",  # the upgrade (then api.socket_limits)
    ("games.Replay", "GET"): "LIMIT_REPLAY",  # each position is a replay of the game
    ("games.Record", "GET"): "LIMIT_LIST",
    ("players.Players", "POST"): "LIMIT_CREATE",  # accounts count as games do
    ("players.Players", "GET"): "LIMIT_LIST",  # a search
    ("players.Keys", "POST"): "LIMIT_CREATE",
    ("players.History", "GET"): "LIMIT_LIST",
    ("players.Export", "GET"): "LIMIT_LIST",
    ("players.Reports", "POST"): "LIMIT_CREATE",
    ("players.Webhooks", "POST"): "LIMIT_CREATE",
}
HEADERS = {
    HeaderNames.LIMIT: "RateLimit-Limit",
    HeaderNames.REMAINING: "RateLimit-Remaining",
    HeaderNames.RESET: "RateLimit-Reset",
    HeaderNames.RETRY_AFTER: "Retry-After",
}


def install(app: Flask) -> None:
    """Wrap the limited views of ``app`` (after its blueprints are registered)."""
    if not app.config["RATE_LIMITS"]:
        return
    redis_url = app.config["REDIS_URL"]
    # Flask runs after-request hooks last registered first: this one must see the
    # headers Flask-Limiter adds in its own hook.
    app.after_request(_reset_as_seconds)
    limiter = Limiter(
        get_remote_address,
        app=app,
        storage_uri=redis_url or "memory://",
        key_prefix=f"{app.config['STORE_PREFIX']}:limits",
        strategy="moving-window",
        headers_enabled=True,
        header_name_mapping=HEADERS,
        swallow_errors=True,  # a store outage answers 503 elsewhere, not here
        retry_after="delta-seconds",
    )
    for (endpoint, method), setting in LIMITED.items():
        exempt: Callable[[], bool] | None = None
        if endpoint == "games.Events":
            exempt = lambda: not wants_stream()  # noqa: E731  # JSON reads are cheap
        view = app.view_functions[endpoint]
        limited: Any = limiter.limit(app.config[setting], methods=[method], exempt_when=exempt)
        app.view_functions[endpoint] = limited(view)
    # Games of bots alone, far fewer a creator: nobody waits in them, and each keeps
    # a bot worker busy (they run after every game a person waits in).
    people = lambda: not _bots_alone()  # noqa: E731
    alone: Any = limiter.limit(app.config["LIMIT_BOTS_ALONE"], methods=["POST"],
                               exempt_when=people, scope="bots-alone")  # fmt: skip
    app.view_functions["games.Games"] = alone(app.view_functions["games.Games"])


def _bots_alone() -> bool:
    """Whether the request creates a game with a bot at every seat."""
    body = request.get_json(silent=True)
    seats = body.get("seats") if isinstance(body, dict) else None
    return (
        bool(seats)
        and isinstance(seats, list)
        and all(isinstance(seat, dict) and seat.get("bot") for seat in seats)
    )


def _reset_as_seconds(response: Response) -> Response:
    """RateLimit-Reset counts seconds from now (Flask-Limiter writes a timestamp), and
    Retry-After, only on a 429, is at least 1: Flask-Limiter rounds it down, often to
    0, and a client that retries at once only meets the limit again."""
    reset = response.headers.get("RateLimit-Reset")
    if reset is None or not reset.isdigit() or int(reset) < 1_000_000_000:
        return response
    wait = int(reset) - time.time()
    response.headers["RateLimit-Reset"] = str(max(0, math.ceil(wait)))
    if response.status_code == 429:
        response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
    elif response.status_code != 503:
        response.headers.pop("Retry-After", None)  # only a refusal says when to retry
    return response
