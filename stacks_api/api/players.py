"""The players resource: accounts without passwords, their keys, their histories."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from ..record import HistoryQuery
from ..service import GameService
from ..service.cursors import read_cursor
from .auth import BEARER, bearer_token
from .caching import NEVER_STORE
from .games import problems
from .player_schemas import (
    CreatedKeySchema,
    CreatedPlayerSchema,
    HistoryQuerySchema,
    HistorySchema,
    KeysSchema,
    NewKeySchema,
    NewPlayerSchema,
    PlayerSchema,
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
    @blp.response(200, PlayerSchema)
    @blp.doc(security=BEARER)
    @problems(401, 503)
    @blp.doc(operationId="getMe")
    def get(self) -> Any:
        """Your account (the one your key acts for)"""
        return service().players.profile(me()), 200, {"Cache-Control": "private, no-cache"}


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
    @problems(404, 503)
    @blp.doc(operationId="getPlayer", security=[])
    def get(self, player_id: str) -> Any:
        """A player's public profile"""
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
