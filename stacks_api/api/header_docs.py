"""The optional request headers the games' routes read, as the OpenAPI document
describes them (``api.guards`` reads and checks them)."""

from __future__ import annotations

import re
from typing import Any

from .guards import VERSION_HEADER, VIEW_TAG


def header(name: str, description: str, **schema: Any) -> dict[str, Any]:
    """An optional request header, for the OpenAPI document."""
    return {
        "in": "header",
        "name": name,
        "required": False,
        "schema": {"type": "string", **schema},
        "description": description,
    }


def tag_form(form: re.Pattern[str], longest: int) -> dict[str, Any]:
    """The OpenAPI form of a header the guards read with ``form`` (or ``*``)."""
    return {"pattern": rf"^{form.pattern}$|^\*$", "maxLength": longest}


VERSION = tag_form(VERSION_HEADER, 22)
IF_MATCH = header(
    "If-Match", 'Act only if the game is at this version, e.g. "12" (412 otherwise).', **VERSION
)
IF_NONE_MATCH = header(
    "If-None-Match",
    'The ETag of the view you have, e.g. "12" (spectators), "12-s1" (seat 1) or '
    '"12-s1-p0a1b2c3d" (what it shows of its people: presence, vacation): 304 with no body '
    "while it is current. Only your own view's tag ever matches.",
    **tag_form(VIEW_TAG, 36),
)
IDEMPOTENCY_KEY = header(
    "Idempotency-Key",
    "A retry with the same key (from the same seat, or credential) gets the first outcome "
    "instead of acting twice; remembered for 24 h.",
    pattern=r"^[A-Za-z0-9_.\-]{1,64}$",
)
LAST_EVENT_ID = header(
    "Last-Event-ID", "Resume a stream after this version (overrides `after`).", **VERSION
)
PREFER = header(
    "Prefer",
    "`wait=N` (N seconds, 0 to 10): answer once a human seat must act, the game is over, "
    "or N seconds have passed, whichever comes first. Without it nothing waits.",
    example="wait=5",
)
