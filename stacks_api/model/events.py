"""The event types the server writes itself, around each variant's own: one list,
which the engine's replay, the records, the streams and the ratings all read.

A game's events are the rules' (a variant's ``play``, ``draw``, ... and every
variant's ``game_over``) and these, each stamped with the version of the change
that made it."""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]

# What the server says around the rules: never a move, never produced by replaying.
SERVER_EVENTS = frozenset({
    "created", "joined", "started", "cancel_agreed", "cancelled", "timeout", "away", "back",
    "left", "resigned", "aborted", "chat", "vacation",
})  # fmt: skip
# The rules' events that are a side's moves (either game's): what the abort rule and
# the ratings count.
MOVES = frozenset({"play", "exchange", "pass", "discard", "answer"})
# Events after which the server plays a seat for its person (until ``back``, for away).
STOOD_IN = frozenset({"away", "left", "resigned"})


def ends_game(event: Event) -> bool:
    """Whether an event is the one that ends a game (a resignation, or a days game's
    forfeit, that leaves more than one side playing does not)."""
    kind = event["type"]
    return kind in ("game_over", "cancelled", "aborted") or (
        kind in ("resigned", "timeout") and "result" in event
    )
