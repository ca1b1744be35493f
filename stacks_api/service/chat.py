"""Table chat: what people type at a game, kept among its events.

Players talk at one table that every player reads (the printed rules forbid
talk about cards, so there is nothing to hide from the other side). Spectators,
who must send a player key, talk apart: their lines reach the players only once
the game has ended. A message is a change of the game like any other (it takes
a version and is in the record), but it changes nothing anyone acts on, so an
``expected_version`` it made stale still counts as current. Each sender may say
``PER_WINDOW`` lines per ``WINDOW_S``; a line is at most ``LONGEST`` characters,
and a game holds at most ``MOST_LINES`` lines of each audience (players,
spectators): each line is a new version of the game, kept with it.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..model.events import Event
from ..model.record import GONE, JSON, GameRecord
from ..model.refusals import Refusal, validation_error
from ..store import Change, EventFeed
from .changes import stamped
from .once import once
from .seals import require_open
from .table import Caller, Table, seat_of

LONGEST = 300
MOST_LINES = 1000  # of each audience, a game
PER_WINDOW, WINDOW_S = 5, 10.0
RECENT = 100  # the newest versions a sender's recent lines are counted in
FIRST_LOOK = 16  # the newest versions looked at first


def is_spectators(event: Event) -> bool:
    """Whether an event is a spectator's line of chat."""
    return event["type"] == "chat" and "spectator" in event


class Chat:
    def __init__(self, table: Table) -> None:
        self.table = table

    def say(self, game_id: str, token: str | None, text: str, once_key: str | None = None) -> JSON:
        """Say ``text`` at the table (a person with a seat) or among the spectators
        (anyone else, with a player key); the chat event it made. Said once for a
        ``once_key`` (``service.once``)."""
        caller = self.table.caller(token)
        if caller.token is None:
            raise Refusal("unauthorized", "send your seat's token or your player key")
        line = text.strip()
        if not line:
            raise validation_error("text", "say something: the text is empty")
        name = None
        if caller.player_id is not None:
            assert self.table.archive is not None  # the key was found in it
            player = self.table.archive.accounts.player(caller.player_id)
            name = None if player is None else player["name"]

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            if record.ended:
                raise Refusal("game_not_active", f"the game is {record.status}: its chat is over")
            seat = _seat(record, caller)
            if seat is not None:
                self.table.refuse_closed(record.seats[seat].player_id)
            else:
                require_open(self.table, record, caller)
            said: JSON = {"type": "chat", "text": line, "at": self.table.clock()}
            if seat is not None and record.seats[seat].state not in GONE | {"reserved"}:
                said.update(seat=seat, name=record.seats[seat].name)
            elif caller.player_id is not None:
                said.update(spectator=caller.player_id, name=name)
            else:
                raise Refusal("unauthorized", "spectators chat with their player key")
            self._within_limit(record, said)
            audience = 1 if "spectator" in said else 0
            if record.chat_lines[audience] >= MOST_LINES:
                who = "spectators" if audience else "players"
                raise Refusal("chat_full", f"this game's {who} have said {MOST_LINES} lines: "
                              "its chat is full")  # fmt: skip
            counted = list(record.chat_lines)
            counted[audience] += 1
            record = replace(record, chat_lines=(counted[0], counted[1]))
            events: list[Event] = []
            return Change(stamped(record, [said], events), events), events[0]

        asked = {"chat": text}
        return self.table.update(
            game_id, once(self.table.store, game_id, token, once_key, asked, decide), wake=False
        )

    def _within_limit(self, record: GameRecord, said: JSON) -> None:
        """Refuse a sender's line past their limit, saying when the next one may come.
        The newest writes are read first: lines are in time order, so once a line
        older than the window is among them, the older writes need no reading."""
        sender = ("seat", said["seat"]) if "seat" in said else ("spectator", said["spectator"])
        since = said["at"] - WINDOW_S
        for reach in (FIRST_LOOK, RECENT):
            events = self.table.store.events_after(
                record.id, max(0, record.version - reach), newest=record.version
            )
            lines = [e for e in events if e["type"] == "chat"]
            if (lines and lines[0]["at"] <= since) or reach >= record.version:
                break
        recent = [e["at"] for e in lines
                  if e["at"] > since and (sender[0], e.get(sender[0])) == sender]  # fmt: skip
        if len(recent) >= PER_WINDOW:
            wait = math.ceil(min(recent) + WINDOW_S - said["at"])
            raise Refusal("rate_limited", f"at most {PER_WINDOW} lines every {WINDOW_S:g} "
                          f"seconds: wait {max(1, wait)} s", retry_after=max(1, wait))  # fmt: skip

    def lines(self, game_id: str, token: str | None, after: int = 0) -> JSON:
        """The chat after version ``after`` as the caller may read it: a player, while
        the game is on, reads the table's; a spectator and, after the end, everyone
        reads the spectators' too. With the number of spectators watching."""
        caller = self.table.caller(token)
        record = self.table.load(game_id)
        player = _seat(record, caller) is not None
        if not player:
            require_open(self.table, record, caller)
        _, events = self.table.events_after(game_id, after)
        hide = player and not record.ended
        messages = [e for e in events if e["type"] == "chat" and not (hide and is_spectators(e))]
        watching = 0 if record.ended else self.table.store.spectators([game_id])[game_id]
        return {"messages": messages, "spectators": watching}


def _seat(record: GameRecord, caller: Caller) -> int | None:
    """The caller's seat; None for a spectator (a player key holding no seat here)."""
    try:
        return seat_of(record, caller)
    except Refusal:
        if caller.player_id is None:
            raise
        return None


class TableOnly:
    """A game's feed without the spectators' chat (what a player's stream carries)."""

    def __init__(self, feed: EventFeed) -> None:
        self._feed = feed

    def next_batch(self, timeout: float) -> list[Event]:
        return [e for e in self._feed.next_batch(timeout) if not is_spectators(e)]

    def interrupt(self) -> None:
        self._feed.interrupt()

    def close(self) -> None:
        self._feed.close()
