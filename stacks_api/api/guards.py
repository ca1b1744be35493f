"""Refusals for hostile input, before any work is done (docs/api.md).

- JSON bodies are parsed once up front: invalid JSON, integers too long for
  Python to read, and nesting deeper than any real request are a 400 here,
  never an exception deeper in.
- Version headers (If-Match, If-None-Match, Last-Event-ID) and Idempotency-Key
  are read strictly: anything but the documented form is a 400.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import ClientDisconnected

from ..model.refusals import Refusal

MAX_DEPTH = 16  # a position, the deepest real body, nests 4 deep
VERSION_HEADER = re.compile(r'(?:W/)?(?:"([0-9]{1,18})"|([0-9]{1,18}))')
# A view's entity tag: a version, for a seat's own view "-s" and the seat, and "-p"
# and a digest of what it shows of its people.
_VIEW = r"[0-9]{1,18}(?:-s[0-9]{1,2})?(?:-p[0-9a-f]{8})?"
VIEW_TAG = re.compile(rf'(?:W/)?(?:"({_VIEW})"|({_VIEW}))')
IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9_.\-]{1,64}")


def install(app: Flask) -> None:
    app.before_request(check_json_body)


def check_json_body() -> None:
    """Parse a JSON body before anything else reads it; refuse what cannot be read safely."""
    if request.method in ("GET", "HEAD", "OPTIONS") or not request.is_json:
        return  # the method first: reading it costs nothing, the content type a parse
    try:
        raw = request.get_data(cache=True)
    except (OSError, ClientDisconnected):
        raise Refusal("request_timeout", "the request body did not arrive in time") from None
    if not raw:
        return
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):  # ValueError: bad JSON, or an int of 4,300+ digits
        raise Refusal("bad_request", "the request body is not valid JSON") from None
    if _depth(body) > MAX_DEPTH:
        raise Refusal("bad_request", f"the request body nests deeper than {MAX_DEPTH}")


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _tag(name: str, form: re.Pattern[str], message: str) -> str | None:
    """The entity tag in header ``name`` without ``W/`` and quotes; None when absent
    or ``*``; a 400 saying ``message`` when it is not of ``form``."""
    value = request.headers.get(name)
    if value is None or value == "*":
        return None
    match = form.fullmatch(value)
    if match is None:
        raise Refusal("bad_request", message)
    return match.group(1) or match.group(2)


def version_header(name: str) -> int | None:
    """A version from ``name`` ("12", W/"12"), None when absent or ``*``; else 400."""
    tag = _tag(name, VERSION_HEADER, f'{name} must be a version such as "12"')
    return None if tag is None else int(tag)


def view_tag_header(name: str) -> str | None:
    """A view's entity tag from ``name`` ("12", W/"12-s1"), None when absent or ``*``;
    else 400."""
    return _tag(name, VIEW_TAG, f'{name} must be the ETag of a view, such as "12" or "12-s1"')


def idempotency_key() -> str | None:
    """The Idempotency-Key header: 1 to 64 of A-Z a-z 0-9 _ . - ; else 400."""
    value = request.headers.get("Idempotency-Key")
    if value is not None and IDEMPOTENCY_KEY.fullmatch(value) is None:
        raise Refusal(
            "bad_request", "Idempotency-Key must be 1 to 64 characters of A-Z a-z 0-9 _ . -"
        )
    return value
