"""Tournaments: made by a player, joined by players and by the creator's bots, run
by the workers (docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from .. import variants
from .auth import BEARER
from .blueprint import Blueprint
from .games import problems
from .players import me, service
from .tournament_schemas import (
    JoinTournamentSchema,
    NewTournamentSchema,
    TournamentListQuerySchema,
    TournamentListSchema,
    TournamentSchema,
    WithdrawQuerySchema,
)

blp = Blueprint("tournaments", __name__, url_prefix="/api/v1/tournaments",
                description="Tournaments")  # fmt: skip
FRESH = {"Cache-Control": "no-cache"}  # standings move while a tournament runs

EXAMPLE = {"variant": variants.names()[0], "system": "swiss", "rounds": 5,
           "starts_at": 1893456000}  # fmt: skip


@blp.route("")
class Tournaments(MethodView):
    @blp.arguments(TournamentListQuerySchema(), location="query")
    @blp.response(200, TournamentListSchema)
    @problems(422, 501, 503)
    @blp.doc(operationId="listTournaments", security=[])
    def get(self, query: dict[str, Any]) -> Any:
        """Upcoming tournaments (most entrants first), running ones, the last finished

        Without `status`: the first page of each list. With `status`: that list
        a page at a time, each answer's `next` the cursor of the page after.
        """
        tournaments = service().tournaments
        if "status" not in query:
            return {"tournaments": tournaments.listed(), "next": None}, 200, FRESH
        found, following = tournaments.page(query["status"], query.get("cursor"),
                                            query["limit"])  # fmt: skip
        return {"tournaments": found, "next": following}, 200, FRESH

    @blp.arguments(NewTournamentSchema(), example=EXAMPLE)
    @blp.response(201, TournamentSchema)
    @blp.doc(security=BEARER)
    @problems(400, 401, 403, 413, 422, 429, 501, 503)
    @blp.doc(operationId="createTournament")
    def post(self, body: dict[str, Any]) -> Any:
        """Make a swiss or an arena; it starts at `starts_at`

        Every game is clocked (`clock`, 60 s a turn unless you choose). In a
        swiss the workers pair each round once the one before has ended; in an
        arena they pair whoever is free about once a second until its `minutes`
        are over. One with fewer than two entries 5 minutes past its start is
        cancelled.
        The games begin at once: your player key acts for your seat in each.
        An account has at most 5 upcoming tournaments (409
        `too_many_tournaments`).
        """
        return service().tournaments.create(me(), body), 201, FRESH


@blp.route("/<tournament_id>")
class Tournament(MethodView):
    @blp.response(200, TournamentSchema)
    @problems(404, 501, 503)
    @blp.doc(operationId="getTournament", security=[])
    def get(self, tournament_id: str) -> Any:
        """A tournament: its entries, standings (points, Buchholz, Sonneborn-Berger) and
        every round's tables with their games"""
        return service().tournaments.get(tournament_id), 200, FRESH


@blp.route("/<tournament_id>/players")
class Entries(MethodView):
    @blp.arguments(JoinTournamentSchema(), required=False, example={})
    @blp.response(201, TournamentSchema)
    @blp.doc(security=BEARER)
    @problems(400, 401, 403, 404, 409, 413, 422, 429, 501, 503)
    @blp.doc(operationId="joinTournament")
    def post(self, body: dict[str, Any] | None, tournament_id: str) -> Any:
        """Join a tournament (before it ends: a late entry plays from the next round;
        a duplicate event only before it starts); its creator may enter bots instead
        (`bot`, `count`)"""
        body = body or {}
        joined = service().tournaments.join(me(), tournament_id, body.get("bot"),
                                            body.get("count", 1), body.get("entropy"))  # fmt: skip
        return joined, 201, FRESH

    @blp.arguments(WithdrawQuerySchema(), location="query")
    @blp.response(200, TournamentSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 409, 422, 429, 501, 503)
    @blp.doc(operationId="withdrawFromTournament")
    def delete(self, query: dict[str, Any], tournament_id: str) -> Any:
        """Withdraw from the rounds not yet paired (a game under way is played out);
        the creator may withdraw one of its bots (`entry`)"""
        return service().tournaments.withdraw(me(), tournament_id, query.get("entry")), 200, FRESH


@blp.route("/<tournament_id>/start")
class Start(MethodView):
    @blp.response(200, TournamentSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 409, 429, 501, 503)
    @blp.doc(operationId="startTournament")
    def post(self, tournament_id: str) -> Any:
        """Start an upcoming tournament now (its creator, with two entries or more);
        an arena's minutes count from now"""
        return service().tournaments.start(me(), tournament_id), 200, FRESH
