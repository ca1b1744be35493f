"""Giving a game up: resigning (a loss) and aborting an opening (nobody's loss).

A resignation is its side's: in a team game the team has resigned once one of
its people does. Its seats are played on by the stand-in bot and scored as lost
(``stacks_api.model.outcomes``); when only one side has not resigned, the game ends
at once and that side wins. An abort ends a game whose opening is not over
(some side has made fewer than two moves): status ``aborted``, unrated, no
winner.

A side whose every person is ``away`` (the turn clock ran out on three of
their turns in a row, and they have not acted since) may be claimed by anyone
still playing: it is resigned for them. A person who is merely slow is never
away (any action of theirs, or a look at the game, resets it), and a game
without a turn clock has nobody away, so nothing there can be claimed.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..engine import Game
from ..model.events import Event
from ..model.outcomes import opening_over
from ..model.record import GONE, JSON, STAND_IN, GameRecord
from ..model.refusals import Refusal
from ..store import Change
from .changes import ended, gave_up, settled, side_of, stamped
from .once import once
from .people import People
from .table import Table
from .views import render


class Concede:
    def __init__(self, table: Table, people: People) -> None:
        self.table = table
        self.people = people

    def resign(self, game_id: str, token: str | None, once_key: str | None = None) -> JSON:
        """The caller's side gives the game up; the game as the caller sees it. Once
        for a ``once_key`` (``service.once``)."""
        caller = self.table.caller(token)

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            seat = _person(record, self.table.acting_seat(record, caller))
            game = self.table.game(record)
            return self._resigned(record, game, seat, [{"type": "resigned", "seat": seat}])

        asked = {"resign": True}
        return self.table.update(game_id, once(self.table.store, game_id, token, once_key, asked,
                                               decide))  # fmt: skip

    def claim(
        self, game_id: str, token: str | None, outcome: str | None = None,
        once_key: str | None = None,
    ) -> JSON:  # fmt: skip
        """Claim a game from sides that are not there; the game as the caller sees it.

        In a game with a clock or days: every other side whose people are all
        away is resigned for them. In a game with neither: the person to move, of
        another side, once not seen for ``people.times.claimable_s``, either resigns
        (``outcome`` ``win``, the default) or leaves, the stand-in taking the seat
        (``bot``); earlier, 409 ``opponent_present``."""
        caller = self.table.caller(token)
        seen = self.people.last_seen(game_id)

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            seat = _person(record, self.table.acting_seat(record, caller))
            game = self.table.game(record)
            if game.turn_seconds is None and record.days is None:
                return self._absent(record, game, seat, seen, outcome or "win")
            sides: dict[int, list[int]] = {}
            for s in range(record.players):
                sides.setdefault(side_of(game, s), []).append(s)
            gone = [seats[0] for side, seats in sides.items() if side != side_of(game, seat)
                    and all(record.seats[s].state == "away" for s in seats)]  # fmt: skip
            if not gone:
                raise Refusal("nothing_to_claim", "no other side is away: a side can be "
                              "claimed once all its people are away")  # fmt: skip
            said = [{"type": "resigned", "seat": s, "claimed_by": seat} for s in gone]
            return self._resigned(record, game, seat, said)

        asked = {"claim": outcome}
        return self.table.update(game_id, once(self.table.store, game_id, token, once_key, asked,
                                               decide))  # fmt: skip

    def _absent(
        self, record: GameRecord, game: Game, seat: int, seen: dict[int, float], outcome: str
    ) -> tuple[Change, JSON]:
        """The claim of a game with neither clock nor days (``claim``)."""
        mine = side_of(game, seat)
        movers = [s for s in record.to_move
                  if record.seats[s].state == "human" and side_of(game, s) != mine]  # fmt: skip
        if not movers:
            raise Refusal("nothing_to_claim", "no person of another side is to move")
        mover, now = movers[0], self.table.clock()
        last = seen.get(mover, record.created_at)
        claimable = self.people.times.claimable_s
        if now - last < claimable:
            wait = math.ceil(claimable - (now - last))
            raise Refusal("opponent_present", f"{record.seats[mover].name or 'they'} were here "
                          f"lately: it can be claimed in {wait} s if they stay away")  # fmt: skip
        if outcome == "win":
            return self._resigned(record, game, seat, [{"type": "resigned", "seat": mover,
                                                        "claimed_by": seat}])  # fmt: skip
        events: list[Event] = []
        gone = replace(record.seats[mover], state="left", bot=STAND_IN, token=None)
        record = stamped(record.with_seat(mover, gone),
                         [{"type": "left", "seat": mover, "claimed_by": seat}], events)  # fmt: skip
        record = settled(record, game, now, events)
        return Change(record, events), render(record, game, seat)

    def forfeit(self, game_id: str, seats: list[int]) -> None:
        """Resign ``seats`` for their people, who never came (a tournament's no-shows:
        ``service.tournaments``); nothing if the game is over or they are gone."""

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            absent = [s for s in seats if record.seats[s].state in ("human", "away")]
            if record.status != "active" or not absent:
                return Change(None), {}
            said: list[JSON] = [{"type": "resigned", "seat": s, "no_show": True} for s in absent]
            return self._resigned(record, self.table.game(record), absent[0], said)

        self.table.update(game_id, decide)

    def _resigned(
        self, record: GameRecord, game: Game, caller: int, said: list[JSON]
    ) -> tuple[Change, JSON]:
        events: list[Event] = []
        record = gave_up(record, game, said, self.table.clock(), events)
        return Change(record, events), render(record, game, caller)

    def abort(self, game_id: str, token: str | None) -> JSON:
        """End a game whose opening is not over: aborted, unrated, nobody wins."""
        caller = self.table.caller(token)

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            seat = _person(record, self.table.acting_seat(record, caller))
            if record.compared:
                raise Refusal("forbidden", "a tournament or duplicate game cannot be aborted: "
                                           "resign instead")  # fmt: skip
            game = self.table.game(record)
            sides = {s: side_of(game, s) for s in range(record.players)}
            if opening_over(self.table.store.events_after(record.id, 0), sides):
                raise Refusal("opening_over", "every side has made two moves: the game can "
                                              "no longer be aborted; resign instead")  # fmt: skip
            events: list[Event] = []
            record = stamped(record, [{"type": "aborted", "seat": seat}], events)
            record = ended(record, "aborted", events)
            return Change(record, events), render(record, game, seat)

        return self.table.update(game_id, decide)


def _person(record: GameRecord, seat: int) -> int:
    """The seat, if a person still plays it in a game being played."""
    if record.status != "active":
        raise Refusal("game_not_active", f"the game is {record.status}")
    if record.seats[seat].state in GONE:
        raise Refusal("game_not_active", f"your seat has {record.seats[seat].state} the game")
    return seat
