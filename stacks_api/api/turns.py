"""Whose turn: the games that wait for the caller, across all of them."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from .auth import BEARER
from .blueprint import Blueprint
from .games import problems
from .player_schemas import WaitingQuerySchema, WaitingSchema
from .players import me, service

blp = Blueprint("turns", __name__, url_prefix="/api/v1/players", description="Players")


@blp.route("/me/games")
class MyTurns(MethodView):
    @blp.arguments(WaitingQuerySchema(), location="query")
    @blp.response(200, WaitingSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 422, 503)
    @blp.doc(operationId="listMyTurns")
    def get(self, query: dict[str, Any]) -> Any:
        """The games that wait for you (`turn=mine`), nearest deadline first

        Every live game of your account in which you are to move: a days game's
        deadline, a turn clock's, or none (those last, the longest waiting
        first). `GET /players/me` counts them in `turn_count`.
        """
        return (
            {"games": service().players.waiting(me())},
            200,
            {"Cache-Control": "private, no-cache"},
        )
