"""Keyset cursors: where the next page of a listing starts, as opaque text (a time
and an id, the listing's order), read back with a clear refusal when forged."""

from __future__ import annotations

import base64
import binascii
import json

from ..problems import validation_error


def cursor(at: float, game_id: str) -> str:
    """The cursor of the page after the game changed (or ended) at ``at``."""
    return base64.urlsafe_b64encode(json.dumps([at, game_id]).encode()).decode().rstrip("=")


def read_cursor(text: str) -> tuple[float, str]:
    try:
        at, game_id = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
        return float(at), str(game_id)
    except (ValueError, TypeError, binascii.Error):
        raise validation_error("cursor", "not a cursor this server gave") from None
