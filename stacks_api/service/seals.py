"""Duplicate boards closed to everyone but their own seats.

Every game of a duplicate group (a round of a duplicate event, or the games of a
duplicate challenge) is dealt the same cards: whoever saw one table's cards would
know the others'. So while any game of the group is still played, each game shows
nothing of itself (its view, events, record, replay, chat, analysis, result) to
anyone but the people seated in it, anonymous spectators and the group's other
players included, and it stays in the live store: the archive, and with it
every history, rating and listing, learns of it only once the group is over.
"""

from __future__ import annotations

from ..model.record import GameRecord
from ..model.refusals import Refusal
from .table import Caller, Table, seat_of


def closed(table: Table, record: GameRecord) -> bool:
    """Whether the game is a duplicate board whose group is still being played."""
    group = record.duplicate
    if not group:
        return False
    if not record.ended:
        return True
    if "tournament" in group:
        archive = table.archive
        found = None if archive is None else archive.tournaments.get(group["tournament"])
        return found is not None and not found.round_over(group["round"])
    return any(not _over(table, other) for other in group.get("games", ()) if other != record.id)


def require_open(table: Table, record: GameRecord, caller: Caller) -> bool:
    """Whether the game is closed; then refuse anyone but its own seats."""
    if not closed(table, record):
        return False
    try:
        seat = seat_of(record, caller)
    except Refusal:  # a token of no seat here
        seat = None
    if seat is None:
        raise Refusal("duplicate_closed", "this game is a duplicate board: it shows nothing "
                      "to anyone but its own players until every table dealt the same cards "
                      "has ended")  # fmt: skip
    return True


def _over(table: Table, game_id: str) -> bool:
    record = table.store.load(game_id)
    return record is None or record.ended  # gone from the live store: archived, so over
