"""Cache headers: what holds a seat's secrets stays that seat's, in every cache.

A view with ``you`` (a hand, legal actions) is private to the token that asked:
``Cache-Control: private, no-cache`` keeps shared caches from storing it and
makes the browser's own cache ask again each time, ``Vary: Authorization`` keeps
one token's copy from answering another's request, and its entity tag names the
seat (``"12-s1"``; spectators ``"12"``), so ``If-None-Match`` holding another
view's tag never gets a 304; presence and vacation days, which change without a
new version, add ``-p`` and a digest of them. Answers that carry a token are never
stored at all.
"""

from __future__ import annotations

from typing import Any

from ..service.views import people_tag

# Answers that carry a token (joining, creating): no cache may keep them.
NEVER_STORE = {"Cache-Control": "no-store"}
PRIVATE = {"Cache-Control": "private, no-cache"}  # the caller's alone: no shared cache keeps it


def view_tag(view: dict[str, Any]) -> str:
    """The view's entity tag, without quotes (``tag_of``)."""
    you = view.get("you")
    return tag_of(view["version"], None if you is None else you["seat"], people_tag(view))


def tag_of(version: int, seat: int | None, people: str = "") -> str:
    """The entity tag of a view of ``version``, a seat's or (None) a spectator's; with
    ``-p`` and a digest of what it shows of its people (presence, vacation), which
    change without a new version."""
    tag = str(version) if seat is None else f"{version}-s{seat}"
    return f"{tag}-p{people}" if people else tag


def view_headers(view: dict[str, Any]) -> dict[str, str]:
    """ETag, Cache-Control and Vary for an answer that is (or holds) this view."""
    you = view.get("you")
    return headers_of_view(view["version"], None if you is None else you["seat"],
                           people_tag(view))  # fmt: skip


def headers_of_view(version: int, seat: int | None, people: str = "") -> dict[str, str]:
    """ETag, Cache-Control and Vary for a view of ``version`` (see ``tag_of``)."""
    return {
        "ETag": f'"{tag_of(version, seat, people)}"',
        "Cache-Control": "no-cache" if seat is None else "private, no-cache",
        "Vary": "Authorization",
    }
