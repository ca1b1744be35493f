"""Cross-origin access to the API (docs/api.md), for frontends served from elsewhere.

A request to /api/v1 that names an allowed ``Origin`` is answered with
``Access-Control-Allow-Origin`` and the response headers a page may read; a
preflight (``OPTIONS`` with ``Access-Control-Request-Method``, which Flask answers
for every route) also with the methods, request headers and how long a browser may
keep the answer. A request with no ``Origin`` (not from a page's script) is left as
it is: the hot path pays one header lookup.
"""

from __future__ import annotations

from flask import Flask, Response, request

REQUEST_HEADERS = [
    "Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key",
    "Last-Event-ID", "Prefer",
]  # fmt: skip
RESPONSE_HEADERS = [
    "ETag", "Location", "Retry-After", "Preference-Applied", "RateLimit-Limit",
    "RateLimit-Remaining", "RateLimit-Reset",
]  # fmt: skip
METHODS = "GET, POST, DELETE, OPTIONS"
PREFLIGHT_MAX_AGE_S = 600
API_PREFIX = "/api/v1/"
# An app's page exchanges its code and revokes its token from its own origin: no
# cookie or key rides on these, so any origin may.
OPEN_TO_ANY = ("/oauth/token", "/oauth/revoke")


def install(app: Flask) -> None:
    """Answer cross-origin requests and preflights on every /api/v1 route."""
    configured = app.config["CORS_ORIGINS"].strip()
    anyone = configured == "*"
    allowed = frozenset(o.strip() for o in configured.split(",") if o.strip())
    exposed = ", ".join(RESPONSE_HEADERS)
    accepted = ", ".join(REQUEST_HEADERS)

    def answer_origin(response: Response) -> Response:
        origin = request.headers.get("Origin")
        if origin is None:
            return response
        if request.path in OPEN_TO_ANY:
            response.headers["Access-Control-Allow-Origin"] = "*"
            if request.method == "OPTIONS":
                response.headers["Access-Control-Allow-Methods"] = "POST, OPTIONS"
                response.headers["Access-Control-Allow-Headers"] = "Content-Type"
            return response
        if not request.path.startswith(API_PREFIX):
            return response
        if not anyone:
            response.vary.add("Origin")  # the answer differs by origin: caches must know
            if origin not in allowed:
                return response
        headers = response.headers
        headers["Access-Control-Allow-Origin"] = "*" if anyone else origin
        headers["Access-Control-Expose-Headers"] = exposed
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            headers["Access-Control-Allow-Methods"] = METHODS
            headers["Access-Control-Allow-Headers"] = accepted
            headers["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE_S)
        return response

    app.after_request(answer_origin)
