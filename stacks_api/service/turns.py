"""The background's part of a game: bots' moves and expired windows, made by a
runner that holds the game (``stacks_api.workers.runner``), never by a request.

People first: a game where a person waits is claimed before any game of bots
alone (the work queue's bands), and a runner on a game of bots alone lets it go
after any step once a person's game is due."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from .. import bots
from ..engine import Game
from ..model.events import Event
from ..model.outcomes import opening_over
from ..model.pace import DAY_S
from ..model.record import JSON, STAND_IN, GameRecord
from ..runtime import metrics
from ..runtime.offload import offload
from ..store import Change, bots_alone
from .changes import ended, gave_up, settled, side_of, stamped, started_when_full
from .table import Table

# One runner advances a game for at most this long, then lets it go, so a game of
# bots alone cannot keep a worker from the other games.
BOT_BUDGET_S = 5.0
# A runner that keeps losing the race to commit lets the game go.
MAX_CONFLICTS = 5


class _Stale(Exception):
    """The game moved on while a worker was deciding: decide again."""


class _NotDue(Exception):
    """A waiting game whose held seats have not run out (or were all claimed)."""


# A turn played for a person whose clock ran out ends by itself within a few actions;
# this only bounds a policy that would not end it.
MOST_ACTIONS_IN_A_TURN = 50
# Turns in a row a clock runs out on before the seat is away.
TIMEOUTS_TO_AWAY = 3


@dataclass(frozen=True)
class _Step:
    """One background change decided on a snapshot: close an expired window (no
    seat), a server-played seat's action, the whole turn of a person whose clock
    ran out (``timeout``), or a days game's deadline passed (``overdue``: a day of
    vacation, or the game lost)."""

    version: int
    seat: int | None = None
    actions: tuple[JSON, ...] = ()
    timeout: bool = False
    overdue: bool = False


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
        started, conflicts, first = time.monotonic(), 0, True
        while time.monotonic() - started < self.bot_budget_s and conflicts < MAX_CONFLICTS:
            snapshot = self.table.store.load(game_id)
            if first and snapshot is not None and snapshot.due_at is not None:
                lag = max(0.0, self.table.clock() - snapshot.due_at)
                metrics.WORK_LAG_SECONDS.observe(lag)  # how late a runner took it up
            first = False
            if snapshot is not None and snapshot.status == "waiting":
                try:
                    self.table.update(game_id, self._unheld, wake=False)
                except _NotDue:
                    return
                continue  # dealt now: bots may be first to move
            if snapshot is None or snapshot.status != "active":
                return
            step = self._next_step(snapshot)
            if step is None:
                return  # a human must act; a deadline, if any, is the game's entry
            try:
                # This loop goes on with the game: its commits ring for nobody.
                decide = functools.partial(self._commit, step=step)
                self.table.update(game_id, decide, wake=False)
                if step.seat is not None:
                    metrics.ACTIONS.labels(variant=snapshot.variant, by="server").inc()
            except _Stale:
                conflicts += 1
            if not renew():
                return  # the lease was lost (another runner has the game) or we stop
            if bots_alone(snapshot) and self.table.store.work.people_waiting(self.table.clock()):
                return  # a person waits in another game: it goes first

    def _next_step(self, snapshot: GameRecord) -> _Step | None:
        """What the game needs next from a worker, if anything; bots think here."""
        game = self.table.game(snapshot)
        now = self.table.clock()
        if game.expire(now):
            return _Step(snapshot.version)
        rng = random.Random(f"{snapshot.bot_seed}:{_moment(snapshot)}")
        seat = next((s for s in game.to_move if snapshot.seats[s].played_by_server), None)
        if seat is not None:
            stored = snapshot.seats[seat]
            assert stored.player is not None, "the server moves for this seat"
            view = game.view(seat)
            thinking = time.perf_counter()
            action = offload(bots.choose, stored.player, view, rng, dict(stored.options))
            seconds = time.perf_counter() - thinking
            metrics.BOT_DECISION_SECONDS.labels(level=stored.player).observe(seconds)
            return _Step(snapshot.version, seat, (action,))
        if snapshot.turn_deadline is not None and now >= snapshot.turn_deadline:
            seat = next(s for s in game.to_move if snapshot.seats[s].state == "human")
            if snapshot.days is not None:
                return _Step(snapshot.version, seat, overdue=True)
            # The snapshot's game is not needed after this: the plan may play on it.
            actions = offload(_stand_in_turn, game, seat, rng, now)
            return _Step(snapshot.version, seat, tuple(actions), timeout=True)
        return None

    def _overdue(
        self, record: GameRecord, game: Game, seat: int, now: float, events: list[Event]
    ) -> GameRecord:
        """A days game's deadline passed for ``seat``: a whole day is taken from its
        account's vacation bank and the deadline moves on a day (event ``vacation``);
        with no day left, its side has lost as if it resigned (event ``timeout`` with
        ``forfeit``), or, before the opening is over, the game is aborted."""
        deadline = record.turn_deadline
        assert deadline is not None
        archive = self.table.archive
        person = record.seats[seat].player_id
        left = None if archive is None else archive.vacations.take_day(
            record.id, seat, deadline, person)  # fmt: skip
        if left is not None:
            taken = [{"type": "vacation", "seat": seat, "days_left": int(left)}]
            record = stamped(replace(record, turn_deadline=deadline + DAY_S), taken, events)
            return settled(record, game, now, events)
        sides = {s: side_of(game, s) for s in range(record.players)}
        if not opening_over(self.table.store.events_after(record.id, 0), sides):
            aborted = stamped(record, [{"type": "aborted", "seat": seat, "timeout": True}], events)
            return ended(aborted, "aborted", events)
        return gave_up(record, game, [{"type": "timeout", "seat": seat, "forfeit": True}], now,
                       events)  # fmt: skip

    def _unheld(self, record: GameRecord) -> tuple[Change, JSON]:
        """A rematch's seats held for people who did not come back in time go to the
        stand-in bot (each as if its person left), and the table is dealt. A table a
        quick pairing made is cancelled instead: it was never anyone's but theirs."""
        now = self.table.clock()
        if record.status != "waiting" or record.due_at is None or now < record.due_at:
            raise _NotDue
        events: list[Event] = []
        gone = record.reserved_seats()
        if any(record.seats[seat].previous is None for seat in gone):
            cancelled = ended(stamped(record, [{"type": "cancelled"}], events), "cancelled", events)
            return Change(cancelled, events), {}
        for seat in gone:
            held = record.seats[seat]
            record = record.with_seat(seat, replace(held, state="left", bot=STAND_IN))
        record = stamped(replace(record, due_at=None), [{"type": "left", "seat": s} for s in gone],
                         events)  # fmt: skip
        record, _ = started_when_full(record, self.table.game(record), now, events)
        return Change(record, events), {}

    def _commit(self, fresh: GameRecord, step: _Step) -> tuple[Change, JSON]:
        if fresh.version != step.version:
            raise _Stale
        game = self.table.game(fresh)
        events: list[Event] = []
        now = self.table.clock()
        expired = game.expire(now)
        if expired:
            fresh = stamped(fresh, expired, events)
        elif step.overdue:
            assert step.seat is not None
            return Change(self._overdue(fresh, game, step.seat, now, events), events), {}
        elif step.seat is not None:
            played: list[JSON] = [{"type": "timeout", "seat": step.seat}] if step.timeout else []
            for action in step.actions:
                played += game.apply(step.seat, action, now=now)
            if step.timeout:
                fresh, away = _timed_out(fresh, step.seat)
                played += away
            fresh = stamped(fresh, played, events)
        return Change(settled(fresh, game, now, events), events), {}


def _stand_in_turn(game: Game, seat: int, rng: random.Random, now: float) -> list[JSON]:
    """The actions the stand-in bot takes for ``seat`` until its turn is over, played on
    ``game`` (the commit plays them again on the fresh state)."""
    start, actions = list(game.to_move), list[JSON]()
    while game.result is None and game.to_move == start and len(actions) < MOST_ACTIONS_IN_A_TURN:
        action = bots.choose(STAND_IN, game.view(seat), rng)
        game.apply(seat, action, now=now)
        actions.append(action)
    return actions


def _timed_out(record: GameRecord, seat: int) -> tuple[GameRecord, list[JSON]]:
    """One more turn in a row the seat's clock ran out on; at the third it is away."""
    timeouts = record.seats[seat].timeouts + 1
    away = timeouts >= TIMEOUTS_TO_AWAY
    counted = replace(record.seats[seat], timeouts=timeouts, state="away" if away else "human")
    return record.with_seat(seat, counted), [{"type": "away", "seat": seat}] if away else []


def _moment(record: GameRecord) -> int:
    """What a bot's randomness is seeded with beside the game's bot seed: its version;
    on a duplicate board the changes other than chat, so that the boards of one
    group, sharing their bot seed, draw alike in alike positions whatever was said."""
    if record.duplicate:
        return record.version - sum(record.chat_lines)
    return record.version
