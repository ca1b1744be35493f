"""How a change is made to a record: each step returns a new record and adds its
public events, stamped with the version it made, to the change's list."""

from __future__ import annotations

from dataclasses import replace

from ..engine import Game, create_game
from ..model.events import Event, ends_game
from ..model.fairness import game_seed
from ..model.outcomes import last_side, with_leavers
from ..model.pace import DAY_S
from ..model.record import GONE, JSON, STAND_IN, GameRecord, Result, Status


def stamped(record: GameRecord, new: list[JSON], events: list[Event]) -> GameRecord:
    """One state change: the next version, stamped on each of its events."""
    version = record.version + 1
    events += [{"version": version, **event} for event in new]
    return replace(record, version=version)


def started(record: GameRecord, game: Game, events: list[Event]) -> tuple[GameRecord, Game]:
    """The last seat is taken: the game is on. A committed deal is made now, from the
    server seed and every seat's entropy (``stacks_api.model.fairness``)."""
    fair = record.fairness
    if fair is not None and fair.server_seed is not None:
        seed = game_seed(fair.server_seed, list(fair.entropy), fair.scheme)
        game = create_game(record.variant, record.players, seed, game.options, dealer=fair.dealer)
    active = replace(record, status="active", game=game.to_dict())
    return stamped(active, [{"type": "started", "to_move": game.to_move}], events), game


def started_when_full(
    record: GameRecord, game: Game, now: float, events: list[Event]
) -> tuple[GameRecord, Game]:
    """After a seat was taken: a waiting game whose every seat is now taken starts;
    either way the record is settled."""
    if record.status == "waiting" and record.full:
        record, game = started(record, game, events)
    return settled(record, game, now, events), game


def ended(
    record: GameRecord, status: Status, events: list[Event], result: Result | None = None
) -> GameRecord:
    """The one way a game ends, whatever ended it (a win on the board, resignations,
    a claim, a forfeit, an abort, a cancellation): its ``status`` and ``result`` set,
    nobody to move, no deadline, no worker due, and the secrets of a committed deal
    shown on the event that ended it (already in ``events``)."""
    record = replace(record, status=status, result=result, to_move=(), deadline=None,
                     due_at=None, turn_deadline=None)  # fmt: skip
    _revealed(record, events)
    return record


def _revealed(record: GameRecord, events: list[Event]) -> None:
    """The game is over: the event that says so (``game_over``, ``cancelled``, ...)
    shows the secrets of a committed deal. A duplicate board's does not: its seed
    dealt the other tables of its group too, and is told only when the last of them
    has ended, by whoever serves its events then (``with_secrets``)."""
    ending = _ending(events)
    if ending is not None and not record.duplicate:
        ending.update(_secrets(record))


def with_secrets(record: GameRecord, events: list[Event]) -> list[Event]:
    """An ended game's ``events`` with the deal's secrets on the event that ended it
    (a copy: a duplicate board's stored events never hold them)."""
    ending = _ending(events)
    secrets = _secrets(record)
    if ending is None or not secrets or not record.ended:
        return events
    return [{**e, **secrets} if e is ending else e for e in events]


def _ending(events: list[Event]) -> Event | None:
    return next((e for e in reversed(events) if ends_game(e)), None)


def _secrets(record: GameRecord) -> JSON:
    """The committed deal's secrets (none for a chosen deal)."""
    fair = record.fairness
    if fair is None or fair.server_seed is None:
        return {}
    return {"server_seed": fair.server_seed, "entropy": list(fair.entropy)}


def settled(record: GameRecord, game: Game, now: float, events: list[Event]) -> GameRecord:
    """The record's copies of the game's state brought up to date after a change:
    the state itself, the status, who is to move, the deadlines, when a background
    worker is next due, and the result once there is one (then the deal's secrets
    are revealed in ``events``)."""
    status = record.status
    outcome = game.outcome()
    if outcome is not None and status == "active":
        gone = {i for i, seat in enumerate(record.seats) if seat.state in GONE}
        scores = with_leavers(outcome, gone, lambda s: side_of(game, s))
        result = Result(scores, dict(game.result or {}))
        return ended(replace(record, game=game.to_dict()), "finished", events, result)
    if status != "active":  # a waiting table keeps when its held seats run out
        due = record.due_at if status == "waiting" else None
        return replace(record, game=game.to_dict(), to_move=(), deadline=None, due_at=due,
                       turn_deadline=None)  # fmt: skip
    to_move = tuple(game.to_move)
    turn_deadline = _turn_clock(record, game, to_move, now)
    deadlines = [d for d in (game.deadline, turn_deadline) if d is not None]
    server_moves = any(record.seats[s].played_by_server for s in to_move)
    due = now if server_moves else min(deadlines, default=None)
    return replace(record, game=game.to_dict(), to_move=to_move, deadline=game.deadline,
                   turn_deadline=turn_deadline, due_at=due)  # fmt: skip


def gave_up(
    record: GameRecord, game: Game, said: list[JSON], now: float, events: list[Event]
) -> GameRecord:
    """Sides give the game up: each of ``said`` (a ``resigned`` event, or a days
    game's ``timeout`` with ``forfeit``) names a seat, and its whole side is out:
    its seats go to the stand-in, scored as lost. When one side is left, the game
    ends and it wins (the last of ``said`` carries the ``result``)."""
    for event in said:
        side = side_of(game, event["seat"])
        event["seats"] = [s for s in range(record.players) if side_of(game, s) == side]
        for s in event["seats"]:
            if record.seats[s].state != "left":  # a leaver stays one
                record = record.with_seat(s, replace(record.seats[s], state="resigned",
                                                     bot=STAND_IN))  # fmt: skip
    out = {side_of(game, s) for s, held in enumerate(record.seats) if held.state == "resigned"}
    winner = last_side({side_of(game, s) for s in range(record.players)}, out)
    if winner is None:
        return settled(stamped(record, said, events), game, now, events)
    board = [1.0 if side_of(game, s) == winner else 0.0 for s in range(record.players)]
    gone = {s for s, held in enumerate(record.seats) if held.state in GONE}
    scores = with_leavers(board, gone, lambda s: side_of(game, s))
    said[-1]["result"] = _gave_up_detail(game, scores, out)
    result = Result(scores, said[-1]["result"])
    return ended(stamped(record, said, events), "finished", events, result)


def _gave_up_detail(game: Game, scores: tuple[float, ...], resigned: set[int]) -> JSON:
    """A game ended by sides giving up, in the shape of the variant's own result: its
    winner (a team, or a seat), or a draw (the side left had left it too), and the
    sides that gave up."""
    return {"resigned": sorted(resigned), **scored_detail(game, scores)}


def scored_detail(game: Game, scores: tuple[float, ...] | list[float]) -> JSON:
    """The result the seats' ``scores`` tell, in the shape of the variant's own: its
    winner (a team, or a seat), a draw, or nothing when every seat lost."""
    winners = [s for s, score in enumerate(scores) if score == 1.0]
    if winners:
        team = game.team_of(winners[0])
        return {"winner_seat": winners[0]} if team is None else {"winner_team": team}
    return {"draw": True} if any(score == 0.5 for score in scores) else {}


def side_of(game: Game, seat: int) -> int:
    """A seat's side: its team, or (a game without teams) the seat alone."""
    team = game.team_of(seat)
    return seat if team is None else team


def _turn_clock(
    record: GameRecord, game: Game, to_move: tuple[int, ...], now: float
) -> float | None:
    """When the turn of the person to move runs out: set when the turn passes to a
    person, kept while that person goes on. The turn clock's seconds, or a days
    game's days. None without either, while the server moves, and while the engine
    waits on a deadline of its own (a window)."""
    humans = [s for s in to_move if record.seats[s].state == "human"]
    seconds = game.turn_seconds if record.days is None else record.days * DAY_S
    if seconds is None or not humans or game.deadline is not None:
        return None
    if record.turn_deadline is None or to_move != record.to_move:
        return now + seconds
    return record.turn_deadline
