"""Who won, once people left: a person who left a game has lost it.

The engine scores the board (1 a win, 0 a loss, 0.5 a draw), and a seat whose
person left is played on by the stand-in bot, so the board can name a leaver
the winner. The server's result says otherwise: every seat whose person left
scores 0, and when no seat still at the table won the board (a leaver's
stand-in won, or it was a draw), the sides still there take the result between
them: the one side left wins, several share a draw. Ratings rank the same way
(``stacks_api.competition.ratings``), so the result, the record and the rating tell one
story.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from .events import MOVES, STOOD_IN


def with_leavers(
    scores: list[float] | tuple[float, ...], left: Collection[int], side_of: Callable[[int], int]
) -> tuple[float, ...]:
    """The board's ``scores`` with the seats in ``left`` scored as losers; ``side_of``
    names each seat's side (its team, or the seat itself)."""
    if not left:
        return tuple(scores)
    seats = range(len(scores))
    adjusted = [0.0 if seat in left else float(scores[seat]) for seat in seats]
    if not any(scores[s] == 1.0 for s in seats if s not in left):  # no winner stayed
        sides = {side_of(s) for s in seats if s not in left}
        share = 1.0 if len(sides) == 1 else 0.5
        adjusted = [0.0 if s in left else share for s in seats]
    return tuple(adjusted)


# An opening is over once every side has made this many moves: before, a game can
# be aborted (nobody's loss) and a leaver rates nothing.
OPENING_MOVES = 2


def opening_over(events: Iterable[Mapping[str, Any]], sides: Mapping[int, int]) -> bool:
    """Whether every side has made ``OPENING_MOVES`` moves in ``events``; ``sides``
    maps each seat to its side."""
    moves = dict.fromkeys(sides.values(), 0)
    for event in events:
        if event["type"] in MOVES and "seat" in event:
            moves[sides[event["seat"]]] += 1
    return min(moves.values()) >= OPENING_MOVES


def last_side(sides: Collection[int], resigned: Collection[int]) -> int | None:
    """The one side of ``sides`` still playing once the ``resigned`` ones gave the game
    up (None: more than one is)."""
    still = {side for side in sides if side not in resigned}
    return next(iter(still)) if len(still) == 1 else None


def own_moves(events: Iterable[Mapping[str, Any]], seats: int) -> list[int]:
    """How many moves each seat made itself: not those the clock made for it (in
    the change of its ``timeout`` event), nor the stand-in's while its person was
    away, had left or had resigned."""
    events = list(events)
    clocked = {(e.get("version"), e["seat"]) for e in events if e["type"] == "timeout"}
    made, absent = [0] * seats, set()
    for event in events:
        kind = event["type"]
        if kind in STOOD_IN:
            absent.add(event["seat"])
        elif kind == "back":
            absent.discard(event["seat"])
        elif kind in MOVES and "seat" in event:
            seat = event["seat"]
            if seat not in absent and (event.get("version"), seat) not in clocked:
                made[seat] += 1
    return made


def away_at_end(events: Iterable[Mapping[str, Any]]) -> set[int]:
    """The seats whose person was away when the events end (never back)."""
    away: set[int] = set()
    for event in events:
        if event["type"] == "away":
            away.add(event["seat"])
        elif event["type"] == "back":
            away.discard(event["seat"])
    return away
