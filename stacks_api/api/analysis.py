"""The analysis of a finished game, computed by the background workers."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from .auth import BEARER, bearer_token
from .blueprint import Blueprint
from .games import problems
from .players import NO_CACHE, service
from .teaching_schemas import AnalysisSchema

blp = Blueprint("analysis", __name__, url_prefix="/api/v1/games", description="Analyses")
RETRY_S = 2


@blp.route("/<game_id>/analysis")
class Analysis(MethodView):
    @blp.response(200, AnalysisSchema)
    @blp.alt_response(202, description="Asked for; computed in a while (Retry-After)")
    @problems(403, 404, 409, 429, 503)
    @blp.doc(operationId="getAnalysis", security=[{}, *BEARER])
    def get(self, game_id: str) -> Any:
        """Where a finished game was won or lost: each person's move scored, and luck

        For each move a person made where there was a choice, the chance of
        winning with the best move (`win_before`) and after the one played
        (`win_after`), the strong bot's move there (`best`) and whether the
        drop makes it a `mistake`; and the luck of the cards. The request only
        asks: the background workers analyse the game (tens of seconds) and the
        archive keeps the result beside the record; until then 202 with
        `Retry-After`. A duplicate board has none, for anyone, until every
        game dealt the same cards has ended (it would show the cards).
        """
        games = service()
        games.play.require_open(game_id, bearer_token(), seats_too=True)
        found = games.analyses.ask(game_id)
        if found is None:
            return "", 202, {"Retry-After": str(RETRY_S), **NO_CACHE}
        return found, 200, {"Cache-Control": "public, max-age=3600"}
