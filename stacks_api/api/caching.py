"""Cache headers: what holds a seat's secrets stays that seat's, in every cache.

A view with ``you`` (a hand, legal actions) is private to the token that asked:
``Cache-Control: private, no-cache`` keeps shared caches from storing it and
makes the browser's own cache ask again each time, ``Vary: Authorization`` keeps
one token's copy from answering another's request, and its entity tag names the
seat (``"12-s1"``; spectators ``"12"``), so ``If-None-Match`` holding another
view's tag never gets a 304. Answers that carry a token are never stored at all.
"""

from __future__ import annotations

from typing import Any

# Answers that carry a token (joining, creating): no cache may keep them.
NEVER_STORE = {"Cache-Control": "no-store"}


def view_tag(view: dict[str, Any]) -> str:
    """The view's entity tag, without quotes: its version, and the seat if it has one."""
    you = view.get("you")
    return str(view["version"]) if you is None else f"{view['version']}-s{you['seat']}"


def view_headers(view: dict[str, Any]) -> dict[str, str]:
    """ETag, Cache-Control and Vary for an answer that is (or holds) this view."""
    private = "you" in view
    return {
        "ETag": f'"{view_tag(view)}"',
        "Cache-Control": "private, no-cache" if private else "no-cache",
        "Vary": "Authorization",
    }
