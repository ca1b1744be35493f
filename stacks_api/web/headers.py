"""Headers that keep the browser pages (/play, /docs) safe to open: no script but
the server's own files, no framing by another page (the client keeps seat tokens
and an account key), no sniffing of types, no address sent on to other sites."""

from __future__ import annotations

from flask import Blueprint, Response

POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",  # no inline script, no other origin
    "style-src 'self' 'unsafe-inline'",  # Swagger UI sets style attributes
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
])  # fmt: skip
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # for browsers that predate frame-ancestors
}


def protect(blueprint: Blueprint) -> None:
    """Send ``HEADERS`` with every answer of ``blueprint``."""

    @blueprint.after_request
    def _headers(response: Response) -> Response:
        response.headers.update(HEADERS)
        return response
