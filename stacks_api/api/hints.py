"""Hints: a seat's best moves, computed by the background workers."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from .auth import BEARER, bearer_token
from .blueprint import Blueprint
from .caching import NEVER_STORE
from .games import problems
from .players import service
from .teaching_schemas import HintSchema

blp = Blueprint("hints", __name__, url_prefix="/api/v1/games", description="Hints")
RETRY_S = 1


@blp.route("/<game_id>/hint")
class Hint(MethodView):
    @blp.response(200, HintSchema)
    @blp.alt_response(202, schema=HintSchema, description="Asked for; computed in a moment")
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 409, 429, 503)
    @blp.doc(operationId="getHint")
    def get(self, game_id: str) -> Any:
        """Your best moves now, each with its chance of winning and why (casual games)

        The request only asks: the background workers compute the hint from your
        seat's own view with the strong bot's search. Until it is ready the
        answer is 202 with `Retry-After`; ask again. A hint is for the game's
        current version and a moment your seat must act (409 `not_your_turn`
        otherwise); rated games have none (403 `hints_off`).
        """
        found, version = service().hints.ask(game_id, bearer_token(required=True))
        if found is None:
            answer = {"version": version, "moves": []}
            return answer, 202, {"Retry-After": str(RETRY_S), **NEVER_STORE}
        return found, 200, NEVER_STORE
