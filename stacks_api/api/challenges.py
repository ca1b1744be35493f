"""Challenges between players, and the account settings that govern them."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from .. import variants
from .auth import BEARER
from .blueprint import Blueprint
from .caching import NEVER_STORE, PRIVATE
from .challenge_schemas import (
    AnswerSchema,
    ChallengeAnswerSchema,
    ChallengeListQuerySchema,
    ChallengeListSchema,
    ChallengeMadeSchema,
    ChallengeSchema,
    MatchSchema,
    NewChallengeSchema,
    SettingsSchema,
)
from .games import problems
from .players import me, service

blp = Blueprint("challenges", __name__, url_prefix="/api/v1",
                description="Challenges between players")  # fmt: skip


@blp.route("/players/<player_id>/challenges")
class Challenge(MethodView):
    @blp.arguments(NewChallengeSchema(), example={"variant": variants.names()[0]})
    @blp.response(201, ChallengeMadeSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 409, 413, 422, 429, 503)
    @blp.doc(operationId="challengePlayer")
    def post(self, body: dict[str, Any], player_id: str) -> Any:
        """Challenge a player to a game; it waits 10 minutes for their answer

        They hear `challenge` on their account stream (and webhooks). You may
        have 5 challenges waiting at once, one to each player; a player who
        takes no challenges answers 403. The deal is committed now (its
        `commitment` is in the answer). Keep the `token`: it is your seat's
        once they accept (your key acts for the seat too). You hear
        `challenge_answered` when they accept (with the game), decline, or
        let it expire.
        """
        challenge, token = service().challenges.challenge(me(), player_id, body)
        return {"challenge": challenge, "token": token}, 201, NEVER_STORE


@blp.route("/challenges")
class Challenges(MethodView):
    @blp.arguments(ChallengeListQuerySchema(), location="query")
    @blp.response(200, ChallengeListSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 422, 503)
    @blp.doc(operationId="listChallenges")
    def get(self, query: dict[str, Any]) -> Any:
        """Your challenges, sent and received, newest first (the last hour's), a page
        at a time: each answer's `next` is the cursor of the page after"""
        found, following = service().challenges.of(me(), query.get("cursor"), query["limit"])
        return {"challenges": found, "next": following}, 200, PRIVATE


@blp.route("/challenges/<challenge_id>")
class OneChallenge(MethodView):
    @blp.response(200, ChallengeSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 503)
    @blp.doc(operationId="getChallenge")
    def get(self, challenge_id: str) -> Any:
        """One of your challenges"""
        return service().challenges.get(me(), challenge_id), 200, PRIVATE


def _answer(how: str, status: int) -> type[MethodView]:
    class Answer(MethodView):
        @blp.arguments(AnswerSchema(), required=False)
        @blp.response(status, ChallengeAnswerSchema)
        @blp.doc(security=BEARER)
        @problems(401, 403, 404, 409, 413, 422, 429, 503)
        @blp.doc(operationId=f"{how}Challenge")
        def post(self, body: dict[str, Any] | None, challenge_id: str) -> Any:
            entropy = (body or {}).get("entropy")
            answer = service().challenges.answer(me(), challenge_id, how, entropy)
            return answer, status, NEVER_STORE

    Answer.post.__doc__ = ANSWER_DOCS[how]
    return Answer


ANSWER_DOCS = {
    "accept": """Accept a challenge made to you: the game, both of you seated

        Your answer carries your seat and its token (with your key, the seat
        is yours either way); send `entropy` for your part of the deal (a
        rated challenge needs it). Seats beyond the two of you are open.
        """,
    "decline": """Decline a challenge made to you""",
    "cancel": """Cancel a challenge you made, while it waits""",
}
for _how, _status in (("accept", 201), ("decline", 200), ("cancel", 200)):
    blp.route(f"/challenges/<challenge_id>/{_how}", endpoint=f"{_how.title()}Challenge")(
        _answer(_how, _status)
    )


@blp.route("/matches/<match_id>")
class Match(MethodView):
    @blp.response(200, MatchSchema)
    @problems(404, 503)
    @blp.doc(operationId="getMatch", security=[])
    def get(self, match_id: str) -> Any:
        """A duplicate challenge's match: both games, and who won once both ended

        The two people of an accepted `"deals": "duplicate"` challenge each play
        the same deal from the same seat against the same bot. While either game
        is played, the match shows whose games they are and their status, and
        each game shows nothing to anyone but its own player; once both have
        ended, each result (its score, the game's turns, the sequences or chips
        made) and the winner: a win over a draw over a loss, then a win in fewer
        turns or a loss in more, then more progress.
        """
        return service().challenges.duplicates.match(match_id), 200, {"Cache-Control": "no-cache"}


@blp.route("/players/me/settings")
class Settings(MethodView):
    @blp.response(200, SettingsSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 503)
    @blp.doc(operationId="getSettings")
    def get(self) -> Any:
        """Your account's settings"""
        return service().challenges.settings(me()), 200, PRIVATE

    @blp.arguments(SettingsSchema())
    @blp.response(200, SettingsSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 413, 422, 503)
    @blp.doc(operationId="changeSettings")
    def patch(self, body: dict[str, Any]) -> Any:
        """Change your account's settings: take challenges from anyone, or nobody"""
        settings = service().challenges.settings(me(), body["accepts_challenges"])
        return settings, 200, NEVER_STORE
