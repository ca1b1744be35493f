"""Cross-origin access to the API (docs/api.md), for frontends served from elsewhere."""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

REQUEST_HEADERS = [
    "Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key",
    "Last-Event-ID", "Prefer",
]  # fmt: skip
RESPONSE_HEADERS = [
    "ETag", "Location", "Retry-After", "Preference-Applied", "RateLimit-Limit",
    "RateLimit-Remaining", "RateLimit-Reset",
]  # fmt: skip


def install(app: Flask) -> None:
    """Answer cross-origin requests and preflights on every /api/v1 route."""
    configured = app.config["CORS_ORIGINS"]
    origins = "*" if configured.strip() == "*" else [o.strip() for o in configured.split(",")]
    CORS(
        app,
        resources={r"/api/v1/*": {"origins": origins}},
        allow_headers=REQUEST_HEADERS,
        expose_headers=RESPONSE_HEADERS,
        methods=["GET", "POST", "DELETE", "OPTIONS"],
        supports_credentials=False,
        max_age=600,
    )
