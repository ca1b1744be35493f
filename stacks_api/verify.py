"""Checking a finished game's deal (``stacks-api verify URL GAME_ID``, docs/fairness.md).

From what anyone may read once the game is over (its view and its public
events): the server seed must hash to the commitment shown from the start; the
game's seed is derived again from it and every seat's entropy; the game is dealt
again from that seed through the engine and every public event is replayed. At
each change the replay looks for the action (or the closing of a block window)
that produces exactly the stored events; the first stored event that nothing
reproduces is named.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .engine import Game, create_game
from .fairness import SCHEME, game_seed

JSON = dict[str, Any]
# What the server itself says around the rules' own events: not replayed.
SERVER_EVENTS = frozenset({"created", "joined", "started", "cancelled", "timeout", "away",
                           "back", "left"})  # fmt: skip
# Fields the server adds to the rules' events: the clock's deadlines, and the deal's
# secrets on game_over.
SERVER_FIELDS = ("version", "deadline", "server_seed", "entropy")


@dataclass(frozen=True)
class Verdict:
    """Whether the game checks out; if not, what failed first."""

    ok: bool
    detail: str


def verify(view: JSON, events: list[JSON]) -> Verdict:
    """Check ``view`` (a spectator's, of a game that is over) and its public events."""
    fair = view.get("fairness") or {}
    if fair.get("scheme") != SCHEME:
        return Verdict(False, f"nothing to verify: the deal's scheme is {fair.get('scheme')!r}")
    if "server_seed" not in fair:
        return Verdict(False, "the game is not over: its server seed is still secret")
    if hashlib.sha256(bytes.fromhex(fair["server_seed"])).hexdigest() != fair["commitment"]:
        return Verdict(False, "the server seed does not hash to the commitment")
    seed = game_seed(fair["server_seed"], fair["entropy"])
    game = create_game(view["variant"], len(view["players"]), seed, view["options"],
                       dealer=fair.get("dealer"))  # fmt: skip
    if game.log != view["log"]:
        return Verdict(False, f"the deal differs: {json.dumps(game.log)} is not the view's log")
    started = next((e for e in events if e["type"] == "started"), None)
    if started is None:
        return Verdict(True, "the game ended before it started: nothing was dealt")
    if started["to_move"] != game.to_move:
        return Verdict(
            False, f"started: {game.to_move} should move first, not {started['to_move']}"
        )
    played = [e for e in events if e["version"] > started["version"]]
    rules = [e for e in played if e["type"] not in SERVER_EVENTS]
    failed = _replay(game, [_public(e) for e in rules])
    if failed is not None:
        event = rules[failed]
        return Verdict(False, f"version {event['version']}: nothing the rules allow produces "
                              f"{json.dumps(_public(event))}")  # fmt: skip
    return Verdict(True, f"the deal and all {len(played)} later events check out")


def _public(event: JSON) -> JSON:
    """An event as compared: without what the server adds (its version, deadlines
    from the server's clock, the secrets on game_over)."""
    shown = {k: v for k, v in event.items() if k not in SERVER_FIELDS}
    plain: JSON = json.loads(json.dumps(shown))  # shared read-only events become plain JSON
    return plain


def _replay(game: Game, left: list[JSON], done: int = 0) -> int | None:
    """Play on ``game`` what produces the events ``left``; None when it all replays,
    else the index (from ``done``) of the furthest event nothing produced.

    Several moves may produce the same public events (an answer to a block window
    does not say whether it blocked): then each is tried in turn, on a copy.
    """
    while left:
        moves = _moves_producing(game, left)
        if not moves:
            return done
        if len(moves) > 1:
            furthest = done
            for move, count in moves:
                trial = game.copy()
                move(trial)
                failed = _replay(trial, left[count:], done + count)
                if failed is None:
                    return None
                furthest = max(furthest, failed)
            return furthest
        move, count = moves[0]
        move(game)
        left, done = left[count:], done + count
    return None


Move = Callable[[Game], list[JSON]]


def _moves_producing(game: Game, left: list[JSON]) -> list[tuple[Move, int]]:
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
        produced = [_public(e) for e in move(trial)]
        if produced and produced == left[: len(produced)]:
            found.append((move, len(produced)))
    return found


def _act(game: Game, seat: int, action: JSON) -> list[JSON]:
    return game.apply(seat, action)
