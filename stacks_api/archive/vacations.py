"""The vacation banks of days games (``model.pace``): what each account holds, and
the days taken from it when a deadline passes, each taken once."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from sqlalchemy import Connection, Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..model.pace import banked
from .errors import ArchiveUnavailable, connected
from .models import Player, VacationDay


class Vacations:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def banks(self, player_ids: Iterable[str]) -> dict[str, float]:
        """Each account's vacation days now (an unknown account has none)."""
        wanted = sorted(set(player_ids))
        if not wanted:
            return {}
        now = self.clock()
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Player.id, Player.vacation_days, Player.vacation_at, Player.created_at)
                .where(Player.id.in_(wanted))
            ).all()  # fmt: skip
        return {r.id: banked(r.vacation_days, r.vacation_at or r.created_at, now) for r in rows}

    def take_day(
        self, game_id: str, seat: int, deadline: float, player_id: str | None
    ) -> float | None:
        """Take a whole day from the bank of the seat's account because its deadline
        passed: the days left after it, or None when the bank had no whole day (or
        the seat has no account). Taken once for a game, seat and deadline, however
        often and by however many workers it is asked: the same answer every time."""
        while True:
            taken = self._taken(game_id, seat, deadline)
            if taken is not None:
                return taken[0]
            now = self.clock()
            try:
                with connected(self.engine, write=True) as connection:
                    left = None if player_id is None else _spend(connection, player_id, now)
                    connection.execute(insert(VacationDay).values(
                        game_id=game_id, seat=seat, deadline=deadline, player_id=player_id,
                        days_left=left, at=now))  # fmt: skip
                return left
            except ArchiveUnavailable as err:
                if not isinstance(err.__cause__, IntegrityError):
                    raise
                # Another worker took it first (its spending, not ours, was kept).

    def _taken(self, game_id: str, seat: int, deadline: float) -> tuple[float | None] | None:
        with connected(self.engine) as connection:
            row = connection.execute(
                select(VacationDay.days_left).where(
                    VacationDay.game_id == game_id, VacationDay.seat == seat,
                    VacationDay.deadline == deadline)
            ).first()  # fmt: skip
        return None if row is None else (row.days_left,)


def _spend(connection: Connection, player_id: str, now: float) -> float | None:
    """A day from the account's bank, in the caller's transaction: the days left, or
    None when it holds no whole day."""
    reading = select(Player.vacation_days, Player.vacation_at, Player.created_at).where(
        Player.id == player_id
    )
    if connection.dialect.name == "postgresql":
        reading = reading.with_for_update()
    row = connection.execute(reading).first()
    if row is None:
        return None
    bank = banked(row.vacation_days, row.vacation_at or row.created_at, now)
    if bank < 1.0:
        return None
    connection.execute(
        update(Player).where(Player.id == player_id)
        .values(vacation_days=bank - 1.0, vacation_at=now)
    )  # fmt: skip
    return bank - 1.0
