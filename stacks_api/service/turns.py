"""The background's part of a game: bots' moves and expired windows, made by a
runner that holds the game (``stacks_api.workers.runner``), never by a request."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from .. import bots
from ..offload import offload
from ..record import JSON, Event, GameRecord
from ..store import Change
from .changes import settled, stamped
from .table import Table

# One runner advances a game for at most this long, then lets it go, so a game of
# bots alone cannot keep a worker from the other games.
BOT_BUDGET_S = 5.0
# A runner that keeps losing the race to commit lets the game go.
MAX_CONFLICTS = 5


class _Stale(Exception):
    """The game moved on while a worker was deciding: decide again."""


@dataclass(frozen=True)
class _Step:
    """One background change decided on a snapshot: close an expired window
    (no seat), or a bot seat's action."""

    version: int
    seat: int | None = None
    action: JSON | None = None


class Turns:
    def __init__(self, table: Table, bot_budget_s: float = BOT_BUDGET_S) -> None:
        self.table = table
        self.bot_budget_s = bot_budget_s

    def advance(self, game_id: str, renew: Callable[[], bool] = lambda: True) -> None:
        """A runner's work on a game it holds: close expired windows and let bots act
        until a human must.

        Each step decides on a snapshot, outside any lock or transaction, and
        commits only if the game is still at that snapshot's version; otherwise
        it decides again on the new state. ``renew()`` after each step keeps the
        runner's lease (and says whether to go on). After ``bot_budget_s`` of
        work, or too many lost races, the runner lets the game go: it is still
        due, so the most overdue game is taken next, whichever it is.
        """
        started, conflicts = time.monotonic(), 0
        while time.monotonic() - started < self.bot_budget_s and conflicts < MAX_CONFLICTS:
            snapshot = self.table.store.load(game_id)
            if snapshot is None or snapshot.status != "active":
                return
            step = self._next_step(snapshot)
            if step is None:
                return  # a human must act; a deadline, if any, is the game's entry
            try:
                # This loop goes on with the game: its commits ring for nobody.
                decide = functools.partial(self._commit, step=step)
                self.table.update(game_id, decide, wake=False)
            except _Stale:
                conflicts += 1
            if not renew():
                return  # the lease was lost (another runner has the game) or we stop

    def _next_step(self, snapshot: GameRecord) -> _Step | None:
        """What the game needs next from a worker, if anything; bots think here."""
        game = self.table.game(snapshot)
        if game.expire(self.table.clock()):
            return _Step(snapshot.version)
        seat = next((s for s in game.to_move if snapshot.seats[s].state == "bot"), None)
        if seat is None:
            return None
        stored = snapshot.seats[seat]
        assert stored.bot is not None, "a bot seat names its bot"
        rng = random.Random(f"{snapshot.bot_seed}:{snapshot.version}")
        view = game.view(seat)
        action = offload(bots.choose, stored.bot, view, rng, dict(stored.options))
        return _Step(snapshot.version, seat, action)

    def _commit(self, fresh: GameRecord, step: _Step) -> tuple[Change, JSON]:
        if fresh.version != step.version:
            raise _Stale
        game = self.table.game(fresh)
        events: list[Event] = []
        now = self.table.clock()
        expired = game.expire(now)
        if expired:
            fresh = stamped(fresh, expired, events)
        elif step.seat is not None and step.action is not None:
            fresh = stamped(fresh, game.apply(step.seat, step.action, now=now), events)
        return Change(settled(fresh, game, now), events), {}
