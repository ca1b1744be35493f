"""What holds access to your account (apps, personal tokens), and bot accounts."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from .access_schemas import AppsSchema, CreatedTokenSchema, NewTokenSchema
from .auth import BEARER
from .blueprint import Blueprint
from .caching import NEVER_STORE
from .games import problems
from .player_schemas import PlayerSchema
from .players import me, service

blp = Blueprint(
    "apps", __name__, url_prefix="/api/v1/players/me",
    description="Apps and tokens that act for you, and bot accounts",
)  # fmt: skip


@blp.route("/tokens")
class Tokens(MethodView):
    @blp.arguments(NewTokenSchema(), example={"label": "my script", "scopes": ["play", "read"]})
    @blp.response(201, CreatedTokenSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 409, 422, 503)
    @blp.doc(operationId="createToken")
    def post(self, body: dict[str, Any]) -> Any:
        """Make a personal token with chosen scopes, for a script (shown only once)

        It acts for your account within its scopes (403 `missing_scope`
        outside them) until you revoke it under `/players/me/apps`. Only a
        player key may make one.
        """
        grant, token = service().access.personal(me(), body["label"], body["scopes"])
        return {"grant": grant, "token": token}, 201, NEVER_STORE


@blp.route("/apps")
class Apps(MethodView):
    @blp.response(200, AppsSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 503)
    @blp.doc(operationId="listApps")
    def get(self) -> Any:
        """The apps and personal tokens that hold access to your account, newest first"""
        return {"apps": service().access.apps(me())}, 200, NEVER_STORE


@blp.route("/apps/<grant_id>")
class App(MethodView):
    @blp.response(204)
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 503)
    @blp.doc(operationId="revokeApp")
    def delete(self, grant_id: str) -> Any:
        """Revoke an app's or a token's access: refused from its very next request on"""
        service().access.revoke(me(), grant_id)
        return "", 204, NEVER_STORE


@blp.route("/bot")
class BotAccount(MethodView):
    @blp.response(200, PlayerSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 409, 503)
    @blp.doc(operationId="becomeBot")
    def post(self) -> Any:
        """Make this account a bot account, for good

        Only an account that has played no game (409 `has_played`). A bot
        account plays through the API: it is shown as BOT everywhere, people
        challenge it, it never joins quick pairing, and it is ranked on a
        leaderboard of its own (`GET /leaderboard?accounts=bots`).
        """
        return service().players.become_bot(me()), 200, NEVER_STORE
