"""Ratings: the leaderboard, a player's rating over time, a game's rating changes."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from .. import variants
from ..model.refusals import Refusal
from .auth import BEARER, bearer_token
from .blueprint import Blueprint
from .games import problems
from .players import NO_CACHE, service
from .rating_schemas import (
    AccountsLeaderboardQuerySchema,
    BotLevelsSchema,
    GameRatingsSchema,
    LeaderboardQuerySchema,
    LeaderboardSchema,
    RatingHistorySchema,
)

blp = Blueprint("ratings", __name__, url_prefix="/api/v1", description="Ratings and leaderboards")
RETRY_S = 1


@blp.route("/leaderboard")
class Leaderboard(MethodView):
    @blp.arguments(AccountsLeaderboardQuerySchema(), location="query")
    @blp.response(200, LeaderboardSchema)
    @problems(422, 429, 503)
    @blp.doc(operationId="getLeaderboard", security=[])
    def get(self, query: dict[str, Any]) -> Any:
        """The best rated people of a variant

        People only (bot levels are rated, and shown on their own, but never
        ranked here), no provisional rating, and only players whose last rated
        game of the variant ended in the last 30 days. `accounts=bots`: the bot
        accounts (outside programs playing through the API), ranked apart.
        """
        bots = query["accounts"] == "bots"
        board = service().ratings.leaderboard(query["variant"], query["limit"], bots)
        return board, 200, NO_CACHE


@blp.route("/leaderboard/bots")
class BotLadder(MethodView):
    @blp.arguments(LeaderboardQuerySchema(), location="query")
    @blp.response(200, BotLevelsSchema)
    @problems(422, 429, 503)
    @blp.doc(operationId="getBotRatings", security=[])
    def get(self, query: dict[str, Any]) -> Any:
        """The bot levels' ratings in a variant: how strong each level plays, in points

        A level is rated in every rated game it plays (where it sits once).
        """
        return service().ratings.bot_levels(query["variant"]), 200, NO_CACHE


@blp.route("/players/<player_id>/ratings/<variant>")
class RatingHistory(MethodView):
    @blp.response(200, RatingHistorySchema)
    @problems(404, 503)
    @blp.doc(operationId="getRatingHistory", security=[])
    def get(self, player_id: str, variant: str) -> Any:
        """A player's rating in a variant after each of its rated games"""
        if variants.get(variant) is None:
            raise Refusal("not_found", f"no variant named {variant!r}")
        return service().ratings.history(player_id, variant), 200, NO_CACHE


@blp.route("/games/<game_id>/ratings")
class GameRatings(MethodView):
    @blp.response(200, GameRatingsSchema)
    @blp.alt_response(202, schema=GameRatingsSchema, description="Over; rated in a moment")
    @problems(403, 404, 503)
    @blp.doc(operationId="getGameRatings", security=[{}, *BEARER])
    def get(self, game_id: str) -> Any:
        """What a game did to its players' ratings

        202 with `Retry-After` in the moment between the end of a rated game
        and its rating (the archive rates a game when it keeps it). A duplicate
        board answers only its own players (with their token) until every game
        dealt the same cards has ended.
        """
        games = service()
        games.play.require_open(game_id, bearer_token())
        answer = games.ratings.game(game_id)
        if answer["state"] == "pending":
            return answer, 202, {"Retry-After": str(RETRY_S), **NO_CACHE}
        return answer, 200, NO_CACHE
