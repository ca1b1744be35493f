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
    return tag_of(view["version"], None if you is None else you["seat"])


def tag_of(version: int, seat: int | None) -> str:
    """The entity tag of a view of ``version``, a seat's or (None) a spectator's."""
    return str(version) if seat is None else f"{version}-s{seat}"


def view_headers(view: dict[str, Any]) -> dict[str, str]:
    """ETag, Cache-Control and Vary for an answer that is (or holds) this view."""
    you = view.get("you")
    return headers_of_view(view["version"], None if you is None else you["seat"])


def headers_of_view(version: int, seat: int | None) -> dict[str, str]:
    """ETag, Cache-Control and Vary for a view of ``version`` (see ``tag_of``)."""
    return {
        "ETag": f'"{tag_of(version, seat)}"',
        "Cache-Control": "no-cache" if seat is None else "private, no-cache",
        "Vary": "Authorization",
    }
