"""Ratings as players see them: profiles, the leaderboard, a player's rating over
time, and what one game did to its players' ratings."""

from __future__ import annotations

from ..model.record import JSON
from ..model.refusals import Refusal
from .ports import Ratings
from .table import Table

# What a game's rating changes are, as GET /games/{id}/ratings says:
# casual: not a rated game; live: rated, not over yet; pending: over, not rated
# yet (the archive keeps it in a moment); rated: here are the changes;
# unrated: a rated game that changed nobody's rating (cancelled, abandoned in its
# first moves, or a side made fewer than two moves of its own).
STATES = ("casual", "live", "pending", "rated", "unrated")


class RatingDesk:
    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def book(self) -> Ratings:
        return self.table.archive_for("ratings").ratings

    def of(self, player_id: str) -> JSON:
        return self.book.of(player_id)

    def leaderboard(self, variant: str, limit: int) -> JSON:
        return {"variant": variant, "players": self.book.leaderboard(variant, limit)}

    def bot_levels(self, variant: str) -> JSON:
        return {"variant": variant, "levels": self.book.bot_levels(variant)}

    def history(self, player_id: str, variant: str) -> JSON:
        if self.table.archive is None or self.table.archive.accounts.player(player_id) is None:
            raise Refusal("not_found", f"no player with id {player_id!r}")
        return {"variant": variant, "points": self.book.history(player_id, variant)}

    def game(self, game_id: str) -> JSON:
        """A game's rating changes, each with the seat's name and player."""
        record = self.table.load(game_id)
        answer: JSON = {"game_id": game_id, "changes": []}
        if not record.rated:
            return {**answer, "state": "casual"}
        if not record.ended:
            return {**answer, "state": "live"}
        assert self.table.archive is not None  # a rated game needs the archive
        if not self.table.archive.games.archived([game_id]):
            return {**answer, "state": "pending"}
        changes = self.book.changes(game_id)
        for change in changes:
            seat = record.seats[change["seat"]]
            change.update(name=seat.name, player_id=seat.player_id, bot=seat.bot)
        return {**answer, "state": "rated" if changes else "unrated", "changes": changes}
