"""What a credential may do. A player key may do everything; an app's access token
(``sta_``) and a personal token (``stp_``) only what their scopes say:

- ``play``: join games, act, resign, chat, pair, for the account;
- ``challenge``: send and answer challenges;
- ``tournament``: make, join and leave tournaments;
- ``read``: the account, its games, its export;
- ``bot``: all of play, challenge and read, for a bot account only.

``account`` (the keys, tokens, connected apps, webhooks, pushes, settings and
the account itself) belongs to player keys alone: no token can be given it.
"""

from __future__ import annotations

PLAY, CHALLENGE, TOURNAMENT, READ, BOT = "play", "challenge", "tournament", "read", "bot"
ACCOUNT = "account"
GRANTABLE = (PLAY, CHALLENGE, TOURNAMENT, READ, BOT)
EVERYTHING = frozenset({*GRANTABLE, ACCOUNT})
BOT_COVERS = frozenset({PLAY, CHALLENGE, READ})

ACCESS_PREFIX = "sta_"  # an app's, from the OAuth flow
PERSONAL_PREFIX = "stp_"  # made by its person for a script


def is_granted_token(token: str) -> bool:
    """Whether ``token`` is an access or personal token (not a key or a seat's)."""
    return token.startswith((ACCESS_PREFIX, PERSONAL_PREFIX))


def allows(scopes: frozenset[str], needed: str) -> bool:
    """Whether a credential holding ``scopes`` may do what needs ``needed``."""
    return needed in scopes or (needed in BOT_COVERS and BOT in scopes)


def parse(text: str) -> frozenset[str] | None:
    """The scopes of a space-separated list; None if one is unknown or none is given."""
    named = frozenset(text.split())
    return named if named and named <= set(GRANTABLE) else None
