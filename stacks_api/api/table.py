"""At the table: resigning, aborting an opening, and table chat."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from .auth import BEARER, bearer_token
from .blueprint import Blueprint
from .caching import NEVER_STORE, view_headers
from .games import problems, rendered, service
from .guards import idempotency_key
from .header_docs import IDEMPOTENCY_KEY
from .schemas import GameViewSchema
from .table_schemas import ChatLineSchema, ChatListSchema, ChatQuerySchema, ClaimSchema, SaySchema

blp = Blueprint("table", __name__, url_prefix="/api/v1/games",
                description="Resign, abort and table chat")  # fmt: skip


@blp.route("/<game_id>/resign")
class Resign(MethodView):
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @problems(400, 401, 404, 409, 422, 429, 503)
    @blp.doc(operationId="resignGame")
    def post(self, game_id: str) -> Any:
        """Resign: your side gives the game up and has lost it

        With your seat's token or your player key. In a team game your whole
        team resigns. The greedy bot plays the resigned seats on; once only
        one side has not resigned, the game ends and that side wins. The
        answer is the game as your seat sees it. A retry with the same
        `Idempotency-Key` is answered the first answer.
        """
        key = idempotency_key()
        view = service().concede.resign(game_id, bearer_token(required=True), once_key=key)
        return rendered(view, 200, view_headers(view))


@blp.route("/<game_id>/abort")
class Abort(MethodView):
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    @problems(401, 404, 409, 429, 503)
    @blp.doc(operationId="abortGame")
    def post(self, game_id: str) -> Any:
        """Abort a game whose opening is not over: it ends `aborted`, unrated

        Any person at the table may, until every side has made two moves (409
        `opening_over` after that: resign instead). Nobody wins or loses.
        """
        view = service().concede.abort(game_id, bearer_token(required=True))
        return rendered(view, 200, view_headers(view))


@blp.route("/<game_id>/claim")
class Claim(MethodView):
    @blp.arguments(ClaimSchema(), required=False, example={"outcome": "win"})
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @problems(400, 401, 404, 409, 413, 422, 429, 503)
    @blp.doc(operationId="claimGame")
    def post(self, body: dict[str, Any] | None, game_id: str) -> Any:
        """Claim a game from a side that is not there

        In a game with a turn clock or days a turn: every other side whose
        people are all away is resigned for them (a seat is away once its clock
        ran out three turns in a row and its person has not come back since).
        In a game with neither: once the person to move (of another side) has
        not been online for 3 minutes (no open stream and no request of theirs
        for 4 minutes), `{"outcome": "win"}` (the default) resigns their side
        and `{"outcome": "bot"}` gives their seat to the greedy bot, as if they
        left; earlier, 409 `opponent_present`. 409 `nothing_to_claim` when
        there is nobody to claim. A retry with the same `Idempotency-Key` is
        answered the first answer.
        """
        outcome, key = (body or {}).get("outcome"), idempotency_key()
        view = service().concede.claim(game_id, bearer_token(required=True), outcome, key)
        return rendered(view, 200, view_headers(view))


@blp.route("/<game_id>/chat")
class Chat(MethodView):
    @blp.arguments(ChatQuerySchema(), location="query")
    @blp.response(200, ChatListSchema)
    @problems(401, 404, 422, 429, 503)
    @blp.doc(operationId="listChat", security=[{}, *BEARER])
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The game's chat after version `after`, and how many watch it

        With a seat's token (or the player key of a seated account), while the
        game is on: the table's lines only. Without, or once the game has
        ended: the spectators' lines too.
        """
        answer = service().chat.lines(game_id, bearer_token(), query["after"])
        return answer, 200, NEVER_STORE

    @blp.arguments(SaySchema(), example={"text": "Good luck!"})
    @blp.response(201, ChatLineSchema)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @problems(400, 401, 404, 409, 413, 422, 429, 503)
    @blp.doc(operationId="sayInChat")
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Say a line (up to 300 characters) at the table, or among the spectators

        A person seated at the game talks at the table, which every player
        reads; anyone else talks among the spectators and sends their player
        key. At most 5 lines every 10 seconds each (429 with `Retry-After`);
        not after the game has ended. What you type is all a line holds. A
        retry with the same `Idempotency-Key` is answered the first line and
        says nothing again.
        """
        key = idempotency_key()
        line = service().chat.say(game_id, bearer_token(required=True), body["text"], key)
        return line, 201, NEVER_STORE
