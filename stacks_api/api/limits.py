"""Rate limits per client address, with Flask-Limiter (docs/api.md).

Limits apply to what creates work or storage: creating games, joining,
acting, and opening event streams. They are counted in Redis when the server
runs on Redis (so every worker and host shares the count), in memory
otherwise. A refusal is a 429 problem with Retry-After and the RateLimit-*
headers; every limited answer carries the RateLimit-* headers.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response
from flask_limiter import HeaderNames, Limiter
from flask_limiter.util import get_remote_address

from .stream import wants_stream

# (endpoint, method) -> the config key of its limit.
LIMITED = {
    ("games.Games", "POST"): "LIMIT_CREATE",
    ("games.Players", "POST"): "LIMIT_JOIN",
    ("games.Actions", "POST"): "LIMIT_ACT",
    ("games.Events", "GET"): "LIMIT_STREAM",
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


def _reset_as_seconds(response: Response) -> Response:
    """RateLimit-Reset counts seconds from now (Flask-Limiter writes a timestamp)."""
    reset = response.headers.get("RateLimit-Reset")
    if reset is not None and reset.isdigit() and int(reset) > 1_000_000_000:
        response.headers["RateLimit-Reset"] = str(max(0, int(reset) - int(time.time())))
    return response
