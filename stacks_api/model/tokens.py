"""Seat and host tokens: 256 random bits for the client, only a SHA-256 hash kept.
Player keys (``stk_...``, made by the archive's accounts) are told apart by their
prefix."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str, stored_hash: str | None) -> bool:
    return stored_hash is not None and hmac.compare_digest(token_hash(token), stored_hash)


KEY_PREFIX = "stk_"


def is_player_key(token: str) -> bool:
    return token.startswith(KEY_PREFIX)


def credential_parts(credential: str) -> tuple[str, str]:
    """The row id and the secret of a ``<prefix>_<id>_<secret>`` key or token (a
    player key, an app's or a personal token); "" for a part that is missing."""
    _, _, rest = credential.partition("_")
    row_id, _, secret = rest.partition("_")
    return row_id, secret
