"""Every request's id, its access line and its figures.

``X-Request-ID``: the client's own when it sends a sane one (1 to 128 of
A-Z a-z 0-9 . _ : -), else a new one; answered on every response, problems
included, and written on every log line of the request. The access line and
the metrics name the route template (``/api/v1/games/<game_id>``), never the
path, the query string or a header, and the method from a fixed set.
"""

from __future__ import annotations

import functools
import re
import time
import uuid
from typing import Any

from flask import Flask, Response, current_app, g, request

from ..runtime import logs, metrics

REQUEST_ID = re.compile(r"[A-Za-z0-9._:\-]{1,128}")
HEADER = "X-Request-ID"
# The methods the metrics name; any other token a client sends counts as "other"
# (each label value is a series kept for ever: a client must not make them).
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE",
                     "CONNECT"})  # fmt: skip


def install(app: Flask) -> None:
    app.before_request(_begin)
    app.after_request(_end)
    app.teardown_request(_forget)


def _begin() -> None:
    sent = request.headers.get(HEADER, "")
    rid = sent if REQUEST_ID.fullmatch(sent) else uuid.uuid4().hex
    g.request_id, g.started = rid, time.perf_counter()
    g.request_id_token = logs.request_id.set(rid)


def _end(response: Response) -> Response:
    rid = g.get("request_id")
    if rid is None:  # refused before the first hook ran (cannot happen today)
        return response
    response.headers[HEADER] = rid
    route = request.url_rule.rule if request.url_rule is not None else "unmatched"
    status = response.status_code
    if current_app.config["METRICS"]:
        method = request.method if request.method in METHODS else "other"
        counted, timed = _series(route, method, status)
        counted.inc()
        timed.observe(time.perf_counter() - g.started)
    if current_app.config["ACCESS_LOG"]:
        logs.access(request.method, route, request.path, status, g.started)
    return response


@functools.cache
def _series(route: str, method: str, status: int) -> tuple[Any, Any]:
    """The request's counter and histogram series, looked up once per label set
    (a route template or "unmatched", one of ``METHODS`` or "other", a status the
    app answered: a few hundred at most)."""
    counted = metrics.REQUESTS.labels(route=route, method=method, status=str(status))
    return counted, metrics.REQUEST_SECONDS.labels(route=route)


def _forget(_: BaseException | None) -> None:
    token = g.pop("request_id_token", None)
    if token is not None:
        logs.request_id.reset(token)
