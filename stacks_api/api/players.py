"""The players resource: accounts without passwords, their keys, their histories."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView

from ..model.record import HistoryQuery
from ..service import GameService
from ..service.cursors import read_cursor
from .auth import BEARER, bearer_token
from .blueprint import Blueprint
from .caching import NEVER_STORE
from .games import problems
from .player_schemas import (
    CreatedKeySchema,
    CreatedPlayerSchema,
    FoundPlayersSchema,
    HistoryQuerySchema,
    HistorySchema,
    KeysSchema,
    MeSchema,
    NewKeySchema,
    NewPlayerSchema,
    PlayerSchema,
    PlayerSearchSchema,
)
from .public_schemas import (
    CreatedWebhookSchema,
    DeliveriesSchema,
    NewReportSchema,
    NewWebhookSchema,
    ReportSchema,
    WebhooksSchema,
)

blp = Blueprint(
    "players", __name__, url_prefix="/api/v1/players", description="Player accounts and histories"
)
NDJSON = "application/x-ndjson"
NO_CACHE = {"Cache-Control": "no-cache"}


def service() -> GameService:
    games: GameService = current_app.extensions["stacks_api.games"]
    return games


def me() -> str:
    """The player whose key sent the request (401 otherwise)."""
    return service().players.me(bearer_token(required=True))


@blp.route("")
class Players(MethodView):
    @blp.arguments(PlayerSearchSchema(), location="query")
    @blp.response(200, FoundPlayersSchema)
    @problems(422, 429, 503)
    @blp.doc(operationId="searchPlayers", security=[])
    def get(self, query: dict[str, Any]) -> Any:
        """Find players by name: open accounts whose name holds `name`

        Provisional players too (the leaderboard shows only settled ratings): open a
        profile to challenge them. Closed and deleted accounts are never found.
        """
        return {"players": service().players.search(query["name"], query["limit"])}, 200, NO_CACHE

    @blp.arguments(NewPlayerSchema(), example={"name": "Ada", "label": "laptop"})
    @blp.response(201, CreatedPlayerSchema)
    @problems(400, 413, 422, 429, 503)
    @blp.doc(operationId="createPlayer", security=[])
    def post(self, body: dict[str, Any]) -> Any:
        """Create a player account; keep the key, it is shown only once

        No password and no e-mail: the key is the account. Send it as
        `Authorization: Bearer <key>` when you join a game to link your seat
        to the account; it then acts for that seat like the seat's token.
        """
        player, key = service().players.create(body["name"], body["label"])
        return {"player": player, "key": key}, 201, NEVER_STORE


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, MeSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 503)
    @blp.doc(operationId="getMe")
    def get(self) -> Any:
        """Your account (the one your key acts for), your vacation days and how many
        games wait for you"""
        return service().players.mine(me()), 200, {"Cache-Control": "private, no-cache"}

    @blp.response(204)
    @blp.doc(security=BEARER)
    @problems(401, 403, 409, 503)
    @blp.doc(operationId="deleteMe")
    def delete(self) -> Any:
        """Delete your account

        In one step: every key is revoked, your seek withdrawn, your webhooks
        and the reports you filed removed, and you leave the leaderboards. Your
        ended games stay for the other players, your seat shown as "deleted
        player"; your profile answers 410 from then on. Refused (409
        `games_live`) while a game you sat in is still being played.
        Take your data out first with `GET /players/me/export`.
        """
        service().players.delete(me())
        return "", 204, NEVER_STORE


@blp.route("/me/export")
class Export(MethodView):
    @blp.response(200, description="NDJSON (`application/x-ndjson`): one object a line")
    @blp.doc(security=BEARER)
    @problems(401, 403, 503)
    @blp.doc(operationId="exportMe")
    def get(self) -> Any:
        """Everything the server keeps about your account, one JSON object a line

        Each line has a `type`: `profile` first, then each `key` (label and
        times, never a secret), `rating` (per variant), `webhook` (never its
        secret), `report` (those you filed), `grant` (an app's or personal
        token, never the token), `push_subscription` (never its keys),
        `notification_preferences`, and a `game` per archived game with its
        whole `record`, newest first.
        """
        lines = service().players.export_account(me())
        return Response(stream_with_context(_lines(lines)), mimetype=NDJSON, headers=NEVER_STORE)


@blp.route("/<player_id>/reports")
class Reports(MethodView):
    @blp.arguments(NewReportSchema(), example={"reason": "insults in the table chat"})
    @blp.response(201, ReportSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 410, 413, 422, 429, 503)
    @blp.doc(operationId="reportPlayer")
    def post(self, body: dict[str, Any], player_id: str) -> Any:
        """Report a player to the server's operators (at most 10 a day)"""
        report = service().players.report(me(), player_id, body["reason"], body.get("game_id"))
        return report, 201, NEVER_STORE


@blp.route("/me/webhooks")
class Webhooks(MethodView):
    @blp.response(200, WebhooksSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 503)
    @blp.doc(operationId="listWebhooks")
    def get(self) -> Any:
        """Your webhooks (never their secrets)"""
        return {"webhooks": service().webhooks.of(me())}, 200, NEVER_STORE

    @blp.arguments(NewWebhookSchema(), example={"url": "https://bot.example.org/stacks",
                                                "events": ["your_turn", "game_ended"]})  # fmt: skip
    @blp.response(201, CreatedWebhookSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 409, 413, 422, 429, 503)
    @blp.doc(operationId="createWebhook")
    def post(self, body: dict[str, Any]) -> Any:
        """Have your account's events POSTed to a URL of yours (at most 5)

        Each delivery is a POST of JSON `{"type", "timestamp", "data"}` signed
        the Standard Webhooks way: `webhook-id` (the same on every retry:
        dedupe by it), `webhook-timestamp` (epoch seconds) and
        `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body"
        keyed by the secret>`. Answer 2xx to accept it; anything else, or no
        answer in 10 s, is retried with growing delays for a day. A webhook
        whose every delivery failed for a day is disabled (your account
        stream says `webhook_disabled`). Private, loopback and link-local
        addresses are refused (422 `url_refused`) unless the server's
        operator allows them; redirects are not followed.
        """
        hook, secret = service().webhooks.create(me(), body["url"], body["events"])
        return {"webhook": hook, "secret": secret}, 201, NEVER_STORE


@blp.route("/me/webhooks/<webhook_id>")
class Webhook(MethodView):
    @blp.response(204)
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 503)
    @blp.doc(operationId="deleteWebhook")
    def delete(self, webhook_id: str) -> Any:
        """Remove a webhook and its pending deliveries"""
        service().webhooks.remove(me(), webhook_id)
        return "", 204, NEVER_STORE


@blp.route("/me/webhooks/<webhook_id>/deliveries")
class Deliveries(MethodView):
    @blp.response(200, DeliveriesSchema)
    @blp.doc(security=BEARER)
    @problems(401, 403, 404, 503)
    @blp.doc(operationId="listWebhookDeliveries")
    def get(self, webhook_id: str) -> Any:
        """A webhook's latest 50 deliveries, newest first, with every attempt"""
        return {"deliveries": service().webhooks.deliveries(me(), webhook_id)}, 200, NEVER_STORE


@blp.route("/me/keys")
class Keys(MethodView):
    @blp.response(200, KeysSchema)
    @blp.doc(security=BEARER)
    @problems(401, 503)
    @blp.doc(operationId="listKeys")
    def get(self) -> Any:
        """Your keys that still work (never their secrets)"""
        return {"keys": service().players.keys(me())}, 200, NEVER_STORE

    @blp.arguments(NewKeySchema(), example={"label": "phone"})
    @blp.response(201, CreatedKeySchema)
    @blp.doc(security=BEARER)
    @problems(401, 409, 422, 503)
    @blp.doc(operationId="createKey")
    def post(self, body: dict[str, Any]) -> Any:
        """Make another key for your account (another device); shown only once"""
        entry, key = service().players.add_key(me(), body["label"])
        return {**entry, "key": key}, 201, NEVER_STORE


@blp.route("/me/keys/<key_id>")
class Key(MethodView):
    @blp.response(204)
    @blp.doc(security=BEARER)
    @problems(401, 404, 503)
    @blp.doc(operationId="revokeKey")
    def delete(self, key_id: str) -> Any:
        """Revoke one of your keys: it is refused from its next request on"""
        service().players.revoke(me(), key_id)
        return "", 204, NEVER_STORE


@blp.route("/<player_id>")
class Profile(MethodView):
    @blp.response(200, PlayerSchema)
    @problems(404, 410, 503)
    @blp.doc(operationId="getPlayer", security=[])
    def get(self, player_id: str) -> Any:
        """A player's public profile (410 `player_deleted` once they deleted it)"""
        return service().players.profile(player_id), 200, NO_CACHE


@blp.route("/<player_id>/games")
class History(MethodView):
    @blp.arguments(HistoryQuerySchema(), location="query")
    @blp.response(200, HistorySchema)
    @problems(404, 422, 429, 503)
    @blp.doc(operationId="listPlayerGames", security=[])
    def get(self, query: dict[str, Any], player_id: str) -> Any:
        """A player's games, newest first: live ones, then ended ones a page at a time

        Filter by `variant`, `since`, `until`, `result` (won, lost, drawn:
        ended games only) and `opponent`; follow `next` for the next page.
        With `Accept: application/x-ndjson`, every ended game's record instead,
        one JSON document (a `Record`) a line, newest first, streamed as it is
        read (left out of the response types here: generated clients read the
        JSON form).
        """
        cursor = query.pop("cursor", None)
        limit = query.pop("limit")
        history = HistoryQuery(
            player_id, after=None if cursor is None else read_cursor(cursor), **query
        )
        players = service().players
        if request.accept_mimetypes.best == NDJSON:
            records = players.export(history)
            return Response(stream_with_context(_lines(records)), mimetype=NDJSON,
                            headers=NO_CACHE)  # fmt: skip
        games, after = players.games(history, limit)
        return {"games": games, "next": after}, 200, NO_CACHE


def _lines(records: Iterator[dict[str, Any]]) -> Iterator[bytes]:
    for record in records:
        yield json.dumps(record, separators=(",", ":")).encode() + b"\n"
