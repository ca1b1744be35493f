"""Values of the access other apps hold (``archive.grants`` keeps them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Holder:
    """Whom a token acts for, and within what."""

    player_id: str
    scopes: frozenset[str]
    bot: bool


@dataclass(frozen=True)
class Code:
    """An authorization code, taken: what its exchange must match."""

    player_id: str
    client_id: str
    redirect_uri: str
    scopes: str
    challenge: str
    code_hash: str
