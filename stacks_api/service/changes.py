"""How a change is made to a record: each step returns a new record and adds its
public events, stamped with the version it made, to the change's list."""

from __future__ import annotations

from dataclasses import replace

from ..engine import Game
from ..record import JSON, Event, GameRecord, Result


def stamped(record: GameRecord, new: list[JSON], events: list[Event]) -> GameRecord:
    """One state change: the next version, stamped on each of its events."""
    version = record.version + 1
    events += [{"version": version, **event} for event in new]
    return replace(record, version=version)


def started(record: GameRecord, game: Game, events: list[Event]) -> GameRecord:
    """The last seat is taken: the game is on."""
    active = replace(record, status="active")
    return stamped(active, [{"type": "started", "to_move": game.to_move}], events)


def settled(record: GameRecord, game: Game, now: float) -> GameRecord:
    """The record's copies of the game's state brought up to date after a change:
    the state itself, the status, who is to move, the deadlines, when a background
    worker is next due, and the result once there is one."""
    status = record.status
    outcome = game.outcome()
    result = record.result
    if outcome is not None and status == "active":
        status, result = "finished", Result(tuple(outcome), dict(game.result or {}))
    if status != "active":
        return replace(record, game=game.to_dict(), status=status, result=result, to_move=(),
                       deadline=None, due_at=None, turn_deadline=None)  # fmt: skip
    to_move = tuple(game.to_move)
    turn_deadline = _turn_clock(record, game, to_move, now)
    deadlines = [d for d in (game.deadline, turn_deadline) if d is not None]
    server_moves = any(record.seats[s].played_by_server for s in to_move)
    due = now if server_moves else min(deadlines, default=None)
    return replace(record, game=game.to_dict(), to_move=to_move, deadline=game.deadline,
                   turn_deadline=turn_deadline, due_at=due)  # fmt: skip


def _turn_clock(
    record: GameRecord, game: Game, to_move: tuple[int, ...], now: float
) -> float | None:
    """When the turn of the person to move runs out: set when the turn passes to a
    person, kept while that person goes on. None without a turn clock, while the
    server moves, and while the engine waits on a deadline of its own (a window)."""
    humans = [s for s in to_move if record.seats[s].state == "human"]
    if game.turn_seconds is None or not humans or game.deadline is not None:
        return None
    if record.turn_deadline is None or to_move != record.to_move:
        return now + game.turn_seconds
    return record.turn_deadline
