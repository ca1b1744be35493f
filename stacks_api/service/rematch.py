"""The same table again: one next game for a finished one, however many of its
seats ask at once, each caller in their own seat with a new token."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import replace

from ..engine import create_game
from ..model.events import Event
from ..model.record import JSON, GameRecord, Seat
from ..model.refusals import Refusal
from ..model.tokens import new_token, token_hash
from ..store import Change
from .changes import stamped, started_when_full
from .lobby import Lobby, check_rated_join, committed, with_entropy
from .table import Table
from .views import render

# How long a rematch holds a person's seat for them: then a stand-in bot takes it
# and the table plays on without them.
RESERVED_S = 120.0


def next_game_id(game_id: str) -> str:
    """The id of a game's rematch: the same for every caller, so that racing calls
    all make (and find) one game."""
    return hashlib.sha256(f"rematch:{game_id}".encode()).hexdigest()[:16]


def next_seats(record: GameRecord) -> tuple[Seat, ...]:
    """The seats of the next game: bots stay bots, a seat that left is the stand-in
    bot, a person's seat is held for that person (their old token claims it)."""
    seats = []
    for seat in record.seats:
        if seat.state in ("human", "away", "resigned"):
            seats.append(Seat("reserved", name=seat.name, previous=seat.token,
                              player_id=seat.player_id))  # fmt: skip
        elif seat.state == "left":
            seats.append(Seat.for_bot(seat.bot or "greedy", {}))
        else:
            seats.append(Seat.for_bot(seat.bot or "greedy", seat.options))
    return tuple(seats)


class Rematch:
    def __init__(self, table: Table, lobby: Lobby) -> None:
        self.table = table
        self.lobby = lobby

    def rematch(self, game_id: str, token: str | None, entropy: str | None = None) -> JSON:
        """The caller's seat and a new token in the finished game's next game, made by
        the first call; ``entropy`` is mixed into the next game's deal."""
        caller = self.table.caller(token)
        old = self.table.load(game_id)
        seat = self.table.acting_seat(old, caller)
        if old.status != "finished":
            raise Refusal(
                "game_not_active", f"a rematch follows a finished game; this one is {old.status}"
            )
        next_id = old.rematch or next_game_id(old.id)
        if old.rematch is None:
            self._open(old, next_id)
            self.table.update(old.id, lambda record: _linked(record, next_id))
        return self._claim(next_id, seat, old.seats[seat], entropy)

    def _open(self, old: GameRecord, next_id: str) -> None:
        """Create the next game unless a racing call has (the id is the same for all)."""
        previous = self.table.game(old)
        dealer = None if previous.dealer is None else (previous.dealer + 1) % old.players
        options = previous.options
        game = create_game(old.variant, old.players, secrets.randbits(63), options, dealer=dealer)
        fair = committed(old.players, dealer)
        record, events = self.lobby.opened(next_id, game, next_seats(old), old.host, fair,
                                           rematch_of=old.id, unlisted=old.unlisted,
                                           rated=old.rated, days=old.days)  # fmt: skip
        if record.status == "waiting":  # people to come back: they have RESERVED_S
            record = replace(record, due_at=self.table.clock() + RESERVED_S)
        made = self.table.create(record, events)
        if made is not None:
            self.table.schedule(made)

    def _claim(self, next_id: str, seat: int, before: Seat, entropy: str | None) -> JSON:
        token = new_token()

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            held = record.seats[seat]
            if held.previous is None or held.previous != before.token:
                raise Refusal("seat_taken", f"seat {seat} of the rematch is not yours")
            if record.ended:
                raise Refusal("game_not_active", f"the rematch is already {record.status}")
            if held.state in ("human", "away"):
                # A call again (a retry, or a lost answer): the seat gets the new
                # token, and the game no event, no version, no entropy.
                rekeyed = record.with_seat(seat, replace(held, token=token_hash(token)))
                answer = {"game": render(rekeyed, self.table.game(rekeyed), seat), "seat": seat,
                          "token": token}  # fmt: skip
                return Change(rekeyed), answer
            if held.state != "reserved":  # left it, or the time to come back ran out
                raise Refusal("seat_taken", f"seat {seat} of the rematch is no longer held "
                                            f"for you ({held.state})")  # fmt: skip
            if record.rated:
                check_rated_join(held.player_id, entropy)
            events: list[Event] = []
            joined = {"type": "joined", "seat": seat, "name": held.name}
            record = replace(record.with_seat(seat, held.taken_by(held.name, token_hash(token))),
                             fairness=with_entropy(record, seat, entropy))  # fmt: skip
            record = stamped(record, [joined], events)
            record, game = started_when_full(record, self.table.game(record), self.table.clock(),
                                             events)  # fmt: skip
            answer = {"game": render(record, game, seat), "seat": seat, "token": token}
            return Change(record, events), answer

        return self.table.update(next_id, decide)


def _linked(record: GameRecord, next_id: str) -> tuple[Change, JSON]:
    """The finished game points at its rematch (once: racing links write nothing)."""
    if record.rematch is not None:
        return Change(None), {}
    return Change(replace(record, rematch=next_id)), {}
