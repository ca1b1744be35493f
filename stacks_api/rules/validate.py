"""Strict readers for positions: each raises SetupError naming the first problem."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from .base import is_int
from .errors import SetupError


def fail(message: str) -> SetupError:
    return SetupError(f"position: {message}", "position")


def expect_keys(obj: object, required: Iterable[str], optional: Iterable[str]) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise fail("must be a JSON object")
    required = tuple(required)
    known = set(required) | set(optional)
    for key in obj:
        if key not in known:
            raise fail(f"unknown key {key!r}")
    for key in required:
        if key not in obj:
            raise fail(f"missing key {key!r}")
    return obj


def expect_list(value: object, name: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise fail(f"{name} must be a list")
    if length is not None and len(value) != length:
        raise fail(f"{name} must have {length} entries, not {len(value)}")
    return value


def expect_int(value: object, name: str, low: int, high: int) -> int:
    if not is_int(value) or not low <= value <= high:
        raise fail(f"{name} must be a whole number from {low} to {high}")
    assert isinstance(value, int)
    return value


def expect_cards(value: object, name: str, valid: frozenset[str]) -> list[str]:
    cards = expect_list(value, name)
    for i, card in enumerate(cards):
        if not isinstance(card, str) or card not in valid:
            raise fail(f"{name}[{i}] is not a card code: {card!r}")
    return list(cards)


def expect_per_seat_cards(
    value: object, name: str, players: int, valid: frozenset[str]
) -> list[list[str]]:
    rows = expect_list(value, name, players)
    return [expect_cards(row, f"{name}[{seat}]", valid) for seat, row in enumerate(rows)]


def remaining_deck(deck: Iterable[str], zones: Iterable[list[str]], exact: bool) -> list[str]:
    """The cards of ``deck`` not in ``zones``; refuse extra cards, and missing ones if ``exact``."""
    left = Counter(deck)
    for zone in zones:
        left.subtract(zone)
    extra = sorted(card for card, n in left.items() if n < 0)
    if extra:
        raise fail(f"more copies of {extra[0]} than the deck holds")
    if exact and +left:
        missing = sorted(+left)[0]
        raise fail(f"draw_pile is given, so every card must be placed; {missing} is missing")
    return sorted(left.elements())
