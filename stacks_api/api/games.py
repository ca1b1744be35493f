"""The games resource: lobby, seats, views, actions, events."""

from __future__ import annotations

import functools
import http
import secrets
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, request, url_for
from flask.views import MethodView

from ..model.refusals import Refusal
from ..runtime.ttl_cache import TtlCache
from ..service import GameService
from . import examples
from .auth import BEARER, bearer_token
from .blueprint import Blueprint
from .caching import NEVER_STORE, PRIVATE, headers_of_view, tag_of, view_headers
from .event_schemas import ActionResultSchema, EventsSchema
from .guards import idempotency_key, version_header, view_tag_header
from .header_docs import IDEMPOTENCY_KEY, IF_MATCH, IF_NONE_MATCH, LAST_EVENT_ID, PREFER
from .player_schemas import RecordSchema
from .problems import headers_of
from .schemas import (
    ActionRequestSchema,
    CreatedSchema,
    CreateGameSchema,
    EventsQuerySchema,
    GameListSchema,
    GameViewSchema,
    JoinedSchema,
    JoinSchema,
    ListQuerySchema,
    RematchRequestSchema,
    RematchSchema,
)
from .stream import Hangup, event_stream, wants_stream

blp = Blueprint("games", __name__, url_prefix="/api/v1/games", description="Games and their seats")


MAX_WAIT_S = 10


def service() -> GameService:
    games: GameService = current_app.extensions["stacks_api.games"]
    return games


VIEW_HEADERS = headers_of("ETag", "Cache-Control", "Vary", "Preference-Applied")


def problems(*statuses: int) -> Callable[[Any], Any]:
    """Document the other responses an operation can give (problem details from 400 on)."""

    def decorate(func: Any) -> Any:
        for status in statuses:
            func = blp.alt_response(status, response=http.HTTPStatus(status).name)(func)
        return func

    return decorate


def _prefer_wait() -> int | None:
    """The ``wait=N`` preference of a ``Prefer`` header (RFC 7240), capped at 10 s.
    The server joins repeated headers into one, comma-separated: one lookup reads
    them all (``getlist`` would walk the whole environment on every view)."""
    for preference in request.headers.get("Prefer", "").split(","):
        name, _, value = preference.split(";")[0].strip().partition("=")
        value = value.strip().strip('"')
        if name.strip().lower() == "wait" and value.isascii() and value.isdigit():
            return min(int(value[:6]), MAX_WAIT_S)
    return None


def rendered(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """An answer the service has already rendered as the documented JSON: sent as it
    is, not dumped through its schema again (tests check that the schemas and the
    answers agree)."""
    return Response(current_app.json.dumps(body), status, headers, mimetype="application/json")


def _applied(wait: int | None) -> dict[str, str]:
    return {} if wait is None else {"Preference-Applied": f"wait={wait}"}


@blp.route("")
class Games(MethodView):
    @blp.arguments(ListQuerySchema(), location="query")
    @blp.response(200, GameListSchema, example=examples.LISTING)
    @problems(422, 429, 503)
    @blp.doc(operationId="listGames", security=[])
    def get(self, query: dict[str, Any]) -> Response:
        """List games (default: those waiting for players), newest first

        A page is the same for everyone: each server process answers it from
        its own copy for up to a second. Pages deeper than the 20th are read
        with `cursor` (each answer's `next`). Games being played
        (`status=active`) are the list to watch: of the 500 that moved last,
        the best rated first (their seated accounts' mean `rating`), each with
        its `spectators`; by page only.
        """
        status, variant, page, size = (query["status"], query.get("variant"),
                                       query["page"], query["page_size"])  # fmt: skip
        cursor = query.get("cursor")

        def render() -> bytes:
            games, total, following = service().lobby.list_games(status, variant, page, size,
                                                                  cursor)  # fmt: skip
            listing = {"games": games, "page": page, "page_size": size, "total": total,
                       "next": following}  # fmt: skip
            return current_app.json.dumps(GameListSchema().dump(listing)).encode()

        pages: TtlCache[bytes] = current_app.extensions["stacks_api.lobby"]
        body = pages.get((status, variant, page, size, cursor), render)
        return Response(body, mimetype="application/json")

    @blp.arguments(CreateGameSchema(), examples=examples.CREATE)
    @blp.response(201, CreatedSchema, example=examples.CREATED,
                  headers=headers_of("Location", "ETag", "Cache-Control"))  # fmt: skip
    @problems(400, 413, 422, 429, 503)
    @blp.doc(operationId="createGame", security=[])
    def post(self, body: dict[str, Any]) -> Response:
        """Create a game

        Seats are humans unless they name a bot. Humans take seats with
        POST /players; the game deals when the last seat is filled.
        """
        view, host_token = service().lobby.create(body)
        location = url_for("games.Game", game_id=view["id"])
        headers = {"Location": location, **view_headers(view), **NEVER_STORE}
        return rendered({"game": view, "host_token": host_token}, 201, headers)


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.response(200, GameViewSchema, examples=examples.VIEWS, headers=VIEW_HEADERS)
    @blp.doc(security=[{}, *BEARER], parameters=[IF_NONE_MATCH, PREFER])
    @problems(304, 401, 404, 503)
    @blp.doc(operationId="getGame")
    def get(self, game_id: str) -> Any:
        """The game as you see it: with a seat token, your hand and legal actions

        With `Prefer: wait=N`, the answer waits until a human seat must act
        (or the game is over, or N seconds pass): a simple client sees the
        bots' replies in one request.
        """
        wait = _prefer_wait()
        cached = view_tag_header("If-None-Match")
        shown = service().play.shown(game_id, bearer_token(), wait_s=wait or 0)
        headers = {**headers_of_view(shown.version, shown.seat, shown.people), **_applied(wait)}
        if cached == tag_of(shown.version, shown.seat, shown.people):  # only the caller's own
            return "", 304, headers
        return Response(shown.text, 200, headers, mimetype="application/json")

    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    @problems(401, 404, 409, 503)
    @blp.doc(operationId="cancelGame")
    def delete(self, game_id: str) -> Any:
        """Cancel the game: the host before the deal, every person after it

        Before the deal the host token cancels the game. Once it is dealt, a
        host cannot wipe it: each person at the table sends their own seat's
        token (their agreement is the event `cancel_agreed`, and the view's
        `cancel_agreed` lists who has agreed), and the game is cancelled once
        every one of them has.
        """
        view = service().lobby.cancel(game_id, bearer_token(required=True))
        return rendered(view, 200, view_headers(view))


@blp.route("/<game_id>/players")
class Players(MethodView):
    @blp.arguments(JoinSchema(), required=False, example={"name": "Ada"})
    @blp.response(201, JoinedSchema, example=examples.JOINED)
    @problems(400, 401, 404, 409, 413, 422, 429, 503)
    @blp.doc(operationId="joinGame", security=[{}, *BEARER])
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Take a free human seat; keep the token, it is shown only once

        Sent with your player key (`Authorization: Bearer <key>`), the seat is
        linked to your account: it counts in your history, your name is used
        unless you give one, and the key acts for the seat like its token.
        """
        joined = service().lobby.join(game_id, body.get("name"), body.get("seat"),
                                      body.get("entropy"), bearer_token())  # fmt: skip
        return joined, 201, NEVER_STORE


@blp.route("/<game_id>/record")
class Record(MethodView):
    @blp.response(200, RecordSchema)
    @problems(403, 404, 409, 503)
    @blp.doc(operationId="getRecord", security=[{}, *BEARER])
    def get(self, game_id: str) -> Any:
        """An ended game's record: everything needed to replay and verify it offline

        One JSON document (`format` `stacks-record`, version 1; docs/records.md):
        the seats, the options, the deal's commitment and its revealed secrets,
        every public event, the result and the final public state. Save it and
        check it with `stacks-api verify FILE`. A duplicate board's record
        is its own players' alone (with their token), and without the deal's
        seed, until every game dealt the same cards has ended.
        """
        games = service()
        closed = games.play.require_open(game_id, bearer_token())
        record = games.play.record(game_id, closed)
        return rendered(record, 200, PRIVATE if closed else {"Cache-Control": "public, max-age=60"})


@blp.route("/<game_id>/replay/<int:version>")
class Replay(MethodView):
    @blp.response(200, GameViewSchema)
    @problems(403, 404, 409, 503)
    @blp.doc(operationId="getReplayPosition", security=[{}, *BEARER])
    def get(self, game_id: str, version: int) -> Any:
        """An ended game as a spectator saw it right after one of its versions

        For stepping through a finished game: the versions are those of the
        record's events. The game is dealt again from its revealed secrets and
        replayed through the engine up to that version, so a duplicate board
        has none, for anyone, until every game dealt the same cards has ended.
        """
        games = service()
        games.play.require_open(game_id, bearer_token(), seats_too=True)
        view = games.play.position(game_id, version)
        return rendered(view, 200, {"Cache-Control": "public, max-age=3600"})


@blp.route("/<game_id>/leave")
class Leave(MethodView):
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    @problems(401, 404, 409, 429, 503)
    @blp.doc(operationId="leaveGame")
    def post(self, game_id: str) -> Any:
        """Leave the game: the greedy bot plays your seat from now on

        Before the game starts, the seat is open again instead. Your token
        stops working; the answer is the game as a spectator sees it.
        """
        view = service().lobby.leave(game_id, bearer_token(required=True))
        return rendered(view, 200, view_headers(view))


@blp.route("/<game_id>/rematch")
class Rematch(MethodView):
    @blp.arguments(RematchRequestSchema(), required=False, example={"entropy": "c0ffee42"})
    @blp.response(200, RematchSchema)
    @blp.doc(security=BEARER)
    @problems(401, 404, 409, 413, 422, 429, 503)
    @blp.doc(operationId="rematchGame")
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Play the same table again, once the game is finished

        The first call (from any seat) makes the next game: the same variant,
        options, players and bots, the deal passed on by one seat, a seat that
        left played by the greedy bot. Every call answers your seat and a new
        token there; the game starts once every person's seat has asked. A
        seat nobody claims within 2 minutes goes to the greedy bot, and the
        table plays on. Asking again re-keys your seat (the token before stops
        working) and changes nothing else; a seat you left, or a game that has
        ended, cannot be claimed.
        """
        answer = service().rematch.rematch(game_id, bearer_token(required=True),
                                           (body or {}).get("entropy"))  # fmt: skip
        return rendered(answer, 200, {**view_headers(answer["game"]), **NEVER_STORE})


@blp.route("/<game_id>/actions")
class Actions(MethodView):
    @blp.arguments(ActionRequestSchema(), examples=examples.ACTIONS)
    @blp.response(200, ActionResultSchema, example=examples.ACTION_RESULT, headers=VIEW_HEADERS)
    @blp.doc(security=BEARER, parameters=[IF_MATCH, IDEMPOTENCY_KEY, PREFER])
    @problems(400, 401, 404, 409, 412, 413, 422, 429, 503)
    @blp.doc(operationId="postAction")
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Play one action for your seat

        The answer comes once your action is applied; its `events` are that
        action's. Bots reply in the background (follow the event stream), or
        send `Prefer: wait=N` to get the view once a human must act again, with
        every event from your action up to then.
        """
        token = bearer_token(required=True)  # a missing token is refused before anything else
        key = idempotency_key()  # every header's form is checked before any precondition
        from_header = version_header("If-Match")
        expected = body.pop("expected_version", None)
        if expected is not None and from_header is not None and expected != from_header:
            raise Refusal("stale_version", "If-Match and expected_version disagree")
        wait = _prefer_wait()
        result = service().play.act(
            game_id, token, body,
            expected_version=from_header if from_header is not None else expected,
            idempotency_key=key, wait_s=wait or 0,
        )  # fmt: skip
        return rendered(result, 200, {**view_headers(result["game"]), **_applied(wait)})


SSE_DOC = {
    "responses": {
        "200": {
            "description": "The events, as JSON or as an event stream",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Events"}},
                "text/event-stream": {
                    "schema": {
                        "type": "string",
                        "description": "One SSE message per event: `data:` the event's JSON "
                        "(the variant's `<Prefix>Event`, as in the JSON form); `id:` its "
                        "version, on the last event of each version; comment lines (`:`) "
                        "keep the stream alive.",
                    }
                },
            },
        }
    }
}


# Last-Event-ID on the path: an operation's own parameter list would replace the
# one flask-smorest derives from the query schema (``after``).
@blp.route("/<game_id>/events", parameters=[LAST_EVENT_ID])
class Events(MethodView):
    @blp.arguments(EventsQuerySchema(), location="query")
    @blp.response(200, EventsSchema, example=examples.EVENTS)
    @blp.doc(**SSE_DOC)
    @problems(403, 404, 422, 429, 503)
    @blp.doc(operationId="listEvents", security=[{}, *BEARER])
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """Public events after version `after`, oldest first

        With `Accept: text/event-stream`, a Server-Sent Events stream instead:
        the backlog, then each event as it happens (from any worker), with
        keep-alive comments at most 15 s apart; it ends when the game does.
        The stream also carries `presence` events (`seat`, `presence`,
        `seen_at`, `claimable_at`), without an id: they are never stored. Sent with a seat's
        token (or the key linked to the seat), the stream keeps that seat
        `online` while it is open. A duplicate board's events are its own
        players' alone (with their token) until every game dealt the same
        cards has ended.
        """
        resume = version_header("Last-Event-ID")
        after = query["after"] if resume is None else resume
        games = service()
        watch = query["watch"]
        closed = games.play.require_open(game_id, bearer_token())  # a 404 or 403 now
        if not wants_stream():
            variant, events = games.play.events(game_id, after, watch)
            return {"variant": variant, "events": events}, 200, PRIVATE if closed else {}
        config = current_app.config
        watcher = secrets.token_hex(8)
        seat = games.play.seat_for(game_id, bearer_token())  # a seat's stream: it is here
        stream = event_stream(
            lambda: games.play.follow(game_id, after, watch),
            config["SSE_KEEPALIVE_S"], config["SSE_MAX_S"], games.open_streams,
            hangup=Hangup(request.environ),
            watching=functools.partial(games.play.watching, game_id, watcher) if watch else None,
            presence=games.people.ticker(game_id, seat),
            guard=functools.partial(games.revocations.watch, bearer_token()),
        )  # fmt: skip
        headers = {"Cache-Control": "private, no-cache" if closed else "no-cache",
                   "X-Accel-Buffering": "no"}  # fmt: skip
        return Response(stream, mimetype="text/event-stream", headers=headers)
