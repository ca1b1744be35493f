"""The path every change of a game takes: read its record, decide, compare-and-set
it through the store, then tell the runners if the game now needs one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..engine import Game, restore_game
from ..problems import Refusal
from ..record import JSON, GameRecord
from ..store import Change, GameStore
from ..tokens import matches
from .ports import Jobs

Decide = Callable[[GameRecord], tuple[Change, JSON]]


def not_found(game_id: str) -> Refusal:
    return Refusal("not_found", f"no game with id {game_id!r}")


class Table:
    """The store, the clock and the runners, as every part of the service uses them."""

    def __init__(self, store: GameStore, jobs: Jobs, clock: Callable[[], float]) -> None:
        self.store = store
        self.jobs = jobs
        self.clock = clock

    def load(self, game_id: str) -> GameRecord:
        record = self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        return record

    @staticmethod
    def game(record: GameRecord) -> Game:
        """The record's game, as our own store kept it (not checked again)."""
        return restore_game(record.game)

    def update(self, game_id: str, decide: Decide, wake: bool = True) -> JSON:
        """A compare-and-set through the store, then a word to the runners if the game
        needs one (``wake=False``: the caller is the runner that holds the game)."""
        written: list[GameRecord] = []

        def deciding(record: GameRecord) -> tuple[Change, JSON]:
            change, result = decide(record)
            if change.record is not None:
                change.record = replace(change.record, updated_at=self.clock())
            written[:] = [] if change.record is None else [change.record]
            return change, result

        try:
            result = self.store.update(game_id, deciding)
        except KeyError:
            raise not_found(game_id) from None
        if written and wake:
            self.schedule(written[0])
        return result

    def schedule(self, record: GameRecord) -> None:
        """Tell the runners when a write left the game needing one (its entry in the
        work queue is already written, with the record)."""
        if record.due_at is not None and record.status == "active":
            self.jobs.wake()


def own_seat(record: GameRecord, token: str | None) -> int:
    """The seat ``token`` holds, refused without a token or with another's."""
    seat = seat_of(record, token)
    if seat is None:
        raise Refusal("unauthorized", "send this seat's token as 'Bearer <token>'")
    return seat


def seat_of(record: GameRecord, token: str | None) -> int | None:
    """The seat ``token`` holds (None: no token, a spectator); refused if it holds none."""
    if token is None:
        return None
    for i, seat in enumerate(record.seats):
        if matches(token, seat.token):
            return i
    raise Refusal("unauthorized", "this token belongs to no seat of this game")
