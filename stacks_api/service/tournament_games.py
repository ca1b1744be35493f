"""A tournament table's (or a duplicate match's) game as the workers read it: live
while it is played, or rebuilt from the archive once the live store has let it
go; and the no-shows forfeited, so that an absent person's opponent need not
wait."""

from __future__ import annotations

from ..model.events import Event
from ..model.outcomes import own_moves
from ..model.record import JSON, GameRecord
from .concede import Concede
from .replay import final_record
from .table import Table


def found_game(table: Table, game_id: str) -> GameRecord | None:
    """The game's record (an archived one rebuilt, its final state replayed), or None
    if it was never made."""
    record = table.store.load(game_id)
    if record is not None:
        return record
    document = _document(table, game_id)
    return None if document is None else final_record(document)


def game_events(table: Table, record: GameRecord) -> list[Event]:
    """An ended game's events, from the live store or else the archive."""
    events = table.store.events_after(record.id, 0)
    if events:
        return events
    document = _document(table, record.id)
    return [] if document is None else list(document["events"])


def _document(table: Table, game_id: str) -> JSON | None:
    archive = table.archive
    return None if archive is None else archive.games.document(game_id)


class NoShows:
    def __init__(self, table: Table, concede: Concede) -> None:
        self.table = table
        self.concede = concede

    def forfeit(self, record: GameRecord) -> None:
        """Resign, for them, the people whose clock ran out on their first turn (they
        never acted in the game): a no-show loses, and its opponent need not wait."""
        late = [s for s, seat in enumerate(record.seats) if seat.state in ("human", "away")
                and seat.timeouts > 0]  # fmt: skip
        if late:
            made = own_moves(self.table.store.events_after(record.id, 0), record.players)
            absent = [s for s in late if not made[s]]
            if absent:
                self.concede.forfeit(record.id, absent)
