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
    the state itself, the status, who is to move, the deadline, when a background
    worker is next due, and the result once there is one."""
    status = record.status
    outcome = game.outcome()
    result = record.result
    if outcome is not None and status == "active":
        status, result = "finished", Result(tuple(outcome), dict(game.result or {}))
    if status != "active":
        return replace(record, game=game.to_dict(), status=status, result=result,
                       to_move=(), deadline=None, due_at=None)  # fmt: skip
    to_move = tuple(game.to_move)
    deadline = game.deadline
    bots_to_move = any(record.seats[s].state == "bot" for s in to_move)
    return replace(record, game=game.to_dict(), to_move=to_move, deadline=deadline,
                   due_at=now if bots_to_move else deadline)  # fmt: skip
