"""The actions of Sequence Stacks, built once and shared (read-only: engine/prebuilt.py)."""

from __future__ import annotations

from ...rules.base import Action
from ...rules.prebuilt import Prebuilt
from .cards import (
    ACTION_CARDS,
    BLOCK,
    CARD_SET,
    COLORS,
    MAX_PLAYERS,
    PILES,
    REVERSE,
    SKIP,
    STEAL_CARD,
    STEAL_CHIP,
)


class BuiltAction(Prebuilt):
    """An action of the tables below: well-formed by construction, so apply need not
    look at its fields one by one (whether it is legal is still checked)."""

    __slots__ = ()


SOURCES = ("hand", "discard")
PASS: Action = BuiltAction({"type": "pass"})


def _play(source: str, card: str, **fields: object) -> Action:
    action: Action = {"type": "play", "card": card, **fields}
    if source == "discard":
        action["from"] = "discard"
    return BuiltAction(action)


# legal_actions hands out these, never copies.
ON_PILE = {s: {c: [_play(s, c, pile=p) for p in range(PILES)] for c in CARD_SET} for s in SOURCES}
SIMPLE = {s: {c: _play(s, c) for c in (SKIP, REVERSE, BLOCK)} for s in SOURCES}
STEAL_CARD_PLAYS = {
    s: [_play(s, STEAL_CARD, target=t) for t in range(MAX_PLAYERS)] for s in SOURCES
}
STEAL_CHIP_PLAYS = {
    s: [{c: _play(s, STEAL_CHIP, target=t, color=c) for c in COLORS} for t in range(MAX_PLAYERS)]
    for s in SOURCES
}
DISCARD = {c: BuiltAction({"type": "discard", "card": c}) for c in CARD_SET}

# Which extra fields a play of each card needs; anything else is malformed.
PLAY_FIELDS = {
    **{c: frozenset({"pile"}) for c in CARD_SET - ACTION_CARDS},
    SKIP: frozenset(),
    REVERSE: frozenset(),
    BLOCK: frozenset(),
    STEAL_CARD: frozenset({"target"}),
    STEAL_CHIP: frozenset({"target", "color"}),
}
