"""Keyset cursors: where the next page of a listing starts, as opaque text (a time
and an id, the listing's order), read back with a clear refusal when forged."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from ..model.refusals import validation_error


def cursor(at: float, item_id: str) -> str:
    """The cursor of the page after the item (a game, a challenge) changed, ended or
    was made at ``at``."""
    return _text([at, item_id])


def read_cursor(text: str) -> tuple[float, str]:
    try:
        at, item_id = _values(text)
        return float(at), str(item_id)
    except (ValueError, TypeError):
        raise _refused() from None


def key_cursor(key: tuple[float, float, str]) -> str:
    """The cursor of the page after a row whose sort key is ``key``."""
    return _text(list(key))


def read_key(text: str) -> tuple[float, float, str]:
    try:
        first, second, item_id = _values(text)
        return float(first), float(second), str(item_id)
    except (ValueError, TypeError):
        raise _refused() from None


def _text(values: list[object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


def _values(text: str) -> list[Any]:
    try:
        values = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (ValueError, binascii.Error):
        raise _refused() from None
    if not isinstance(values, list):
        raise _refused()
    return values


def _refused() -> Exception:
    return validation_error("cursor", "not a cursor this server gave")
