"""Ratings as players see them: profiles, the leaderboard, a player's rating over
time, and what one game did to its players' ratings."""

from __future__ import annotations

from ..competition.ratings import Standing, rated_subject, stakes
from ..model.record import JSON, GameRecord
from ..model.refusals import Refusal
from .ports import Ratings
from .table import Table

# What a game's rating changes are, as GET /games/{id}/ratings says:
# casual: not a rated game; live: rated, not over yet; pending: over, not rated
# yet (the archive keeps it in a moment); rated: here are the changes;
# unrated: a rated game that changed nobody's rating (cancelled, abandoned in its
# first moves, or a side made fewer than five moves of its own).
STATES = ("casual", "live", "pending", "rated", "unrated")


class RatingDesk:
    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def book(self) -> Ratings:
        return self.table.archive_for("ratings").ratings

    def of(self, player_id: str) -> JSON:
        return self.book.of(player_id)

    def leaderboard(self, variant: str, limit: int, bots: bool = False) -> JSON:
        """The best people of a variant, or (``bots``) the best bot accounts."""
        return {"variant": variant, "players": self.book.leaderboard(variant, limit, bots)}

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
            return {**answer, "state": "live", "stakes": self._stakes(record)}
        assert self.table.archive is not None  # a rated game needs the archive
        if not self.table.archive.games.archived([game_id]):
            return {**answer, "state": "pending"}
        changes = self.book.changes(game_id)
        for change in changes:
            seat = record.seats[change["seat"]]
            change.update(name=seat.name, player_id=seat.player_id, bot=seat.bot)
        return {**answer, "state": "rated" if changes else "unrated", "changes": changes}

    def _stakes(self, record: GameRecord) -> list[JSON]:
        """What the end of a rated game under way would do to each rated seat (empty
        until every seat is taken). Rated as the archive will rate it: a person by
        their account, a bot level that sits once by its level."""
        if record.status != "active":
            return []
        game = Table.game(record)
        levels = [seat.bot for seat in record.seats if seat.state == "bot" and seat.bot]
        seated = []
        for i, seat in enumerate(record.seats):
            if seat.state not in ("human", "away", "bot"):
                continue  # free, or its person gave it up: nothing at stake
            subject = rated_subject(seat.bot if seat.state == "bot" else None, seat.player_id,
                                    levels)  # fmt: skip
            if subject is None:
                continue
            team = game.team_of(i)
            seated.append(Standing(i, subject, i if team is None else team, 0))
        subjects = sorted({s.subject for s in seated})
        current = self.book.current(subjects, record.variant)
        shown = []
        for stake in stakes(current, seated, self.book.weights(subjects)):
            seat = record.seats[stake.seat]
            shown.append({
                "seat": stake.seat, "name": seat.name, "player_id": seat.player_id,
                "bot": seat.bot if seat.state == "bot" else None,
                "rating": round(stake.rating.mu), "provisional": stake.rating.provisional,
                "win": round(stake.win), "loss": round(stake.loss), "draw": round(stake.draw),
            })  # fmt: skip
        return shown
