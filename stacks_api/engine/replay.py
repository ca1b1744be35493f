"""Replaying a game from its public events: at each change, the move the rules
allow that produces exactly the events stored for it.

The events say what happened, not always which action did it (an answer to a
block window does not say whether it blocked), so where several moves produce
the same events each is tried in turn, on a copy, and the one whose line goes
furthest is kept. ``stacks_api.commands.verify`` checks records with it; the server
rebuilds an ended game's positions with it.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from ..model.events import SERVER_EVENTS
from ..rules.base import Game

JSON = dict[str, Any]
# Fields the server adds to the rules' events: the clock's deadlines, the deal's
# secrets on game_over.
SERVER_FIELDS = ("version", "deadline", "server_seed", "entropy")

Move = Callable[[Game], list[JSON]]
Accept = Callable[[Game], bool]


def public(event: JSON) -> JSON:
    """An event as compared: without what the server adds (its version, deadlines
    from the server's clock, the secrets on game_over), as plain JSON."""
    shown = {k: v for k, v in event.items() if k not in SERVER_FIELDS}
    plain: JSON = json.loads(json.dumps(shown))  # shared read-only values become plain
    return plain


def digest(view: JSON) -> str:
    """SHA-256 of a view as canonical JSON (keys sorted, no spaces), in hex: a
    record's ``final_sha256``."""
    canonical = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def moves(events: list[JSON], after: int) -> list[JSON]:
    """The events of the rules (the moves' own) with a version above ``after``."""
    return [e for e in events if e["version"] > after and e["type"] not in SERVER_EVENTS]


def replay(
    game: Game, left: list[JSON], done: int = 0, accept: Accept | None = None
) -> tuple[Game, int | None]:
    """Play on ``game`` what produces the public events ``left`` (as ``public``
    gives them): the game after them and None, or the game as far as it got and the
    index (from ``done``) of the furthest event nothing produced.

    With ``accept``, a line that produces every event is taken only if ``accept``
    approves the game it ends in, else the search goes on (a Block shown from the
    discard pile and one from the hand make the same events, but not the same
    table); when none is approved, the first line that produced every event."""
    search = _Search(accept)
    after, failed = search.play(game, left, done)
    if failed is not None and search.first_whole is not None:
        return search.first_whole, None
    return after, failed


# Whole lines ``accept`` may turn down before the next one is taken as it is: a
# forged record must not make the search try every way to answer every window.
WHOLE_LINES = 64


class _Search:
    """One replay's search: the lines tried where several moves make the same events."""

    def __init__(self, accept: Accept | None) -> None:
        self.accept = accept
        self.first_whole: Game | None = None
        self.turned_down = 0
        self.seen: set[tuple[int, str]] = set()

    def play(self, game: Game, left: list[JSON], done: int) -> tuple[Game, int | None]:
        while left:
            found = moves_producing(game, left)
            if not found:
                return game, done
            if len(found) > 1:
                return self.branch(game, left, done, found)
            move, count = found[0]
            move(game)
            left, done = left[count:], done + count
        return self.whole(game, done)

    def branch(
        self, game: Game, left: list[JSON], done: int, found: list[tuple[Move, int]]
    ) -> tuple[Game, int | None]:
        furthest, best = done, game
        for move, count in found:
            trial = game.copy()
            move(trial)
            if self.accept is not None and self.tried(trial, done + count):
                continue  # the same table at the same event: its line was followed already
            after, failed = self.play(trial, left[count:], done + count)
            if failed is None:
                return after, None
            if failed > furthest:
                furthest, best = failed, after
        return best, furthest

    def whole(self, game: Game, done: int) -> tuple[Game, int | None]:
        """A line that made every event: taken, unless ``accept`` turns it down."""
        if self.accept is None or self.turned_down >= WHOLE_LINES or self.accept(game):
            return game, None
        self.turned_down += 1
        self.first_whole = self.first_whole or game
        return game, done

    def tried(self, game: Game, done: int) -> bool:
        key = (done, json.dumps(game.to_dict(), sort_keys=True))
        if key in self.seen:
            return True
        self.seen.add(key)
        return False


def moves_producing(game: Game, left: list[JSON]) -> list[tuple[Move, int]]:
    """Every move (an action, or the closing of a block window) whose events begin
    ``left``, with how many events it makes."""
    first, found = left[0], []
    if first["type"] == "window_expired":
        candidates: list[Move] = [lambda g: g.expire(float("inf"))]
    else:
        tries = [(seat, action) for seat in game.to_move for action in game.legal_actions(seat)]
        candidates = [functools.partial(_act, seat=seat, action=action) for seat, action in tries]
    for move in candidates:
        trial = game.copy()
        produced = [public(e) for e in move(trial)]
        if produced and produced == left[: len(produced)]:
            found.append((move, len(produced)))
    return found


def _act(game: Game, seat: int, action: JSON) -> list[JSON]:
    return game.apply(seat, action)
