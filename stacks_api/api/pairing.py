"""Quick pairing (seeks) and each account's event stream."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Response, request, stream_with_context
from flask.views import MethodView

from .. import variants
from ..model.record import JSON
from .auth import BEARER, bearer_token
from .blueprint import Blueprint
from .caching import NEVER_STORE
from .games import problems
from .players import me, service
from .seek_schemas import NewSeekSchema, SeekSchema

blp = Blueprint("pairing", __name__, url_prefix="/api/v1",
                description="Quick pairing and the account's events")  # fmt: skip
# How often an account stream looks for news: often while its games move (a bot
# playing through it waits no longer than this for its turn), less when quiet.
POLL_BUSY_S, POLL_QUIET_S, BUSY_FOR_S = 0.1, 0.5, 10.0
KEEP_ALIVE_S = 15.0
STREAM_S = 3600.0  # a stream ends after this; its client reconnects (Last-Event-ID)


@blp.route("/seeks")
class Seeks(MethodView):
    @blp.arguments(NewSeekSchema(), example={"variant": variants.names()[0], "players": 2,
                                             "rated": True})  # fmt: skip
    @blp.response(201, SeekSchema)
    @blp.doc(security=BEARER)
    @problems(401, 409, 422, 429, 503)
    @blp.doc(operationId="createSeek")
    def post(self, body: dict[str, Any]) -> Any:
        """Ask for a game with someone of your level (quick pairing)

        You wait in a pool with everyone who asked for the same game (variant,
        players, rated or not, turn clock) and are seated with the closest
        ratings first; the range widens by 10 points a second from ±100. Once
        `paired`, join `game_id` with your key (and entropy) within 2 minutes:
        your seat is held for your account. One seek at a time (409
        `already_seeking`); it expires after `wait_s`.
        """
        return service().pairing.seek(me(), body), 201, NEVER_STORE


@blp.route("/seeks/<seek_id>")
class Seek(MethodView):
    @blp.response(200, SeekSchema)
    @blp.doc(security=BEARER)
    @problems(401, 404, 503)
    @blp.doc(operationId="getSeek")
    def get(self, seek_id: str) -> Any:
        """Your seek: still waiting, or paired into a game"""
        return service().pairing.status(me(), seek_id), 200, NEVER_STORE

    @blp.response(200, SeekSchema)
    @blp.doc(security=BEARER)
    @problems(401, 404, 409, 503)
    @blp.doc(operationId="withdrawSeek")
    def delete(self, seek_id: str) -> Any:
        """Stop waiting: a withdrawn seek seats nobody (409 once it was paired)"""
        return service().pairing.withdraw(me(), seek_id), 200, NEVER_STORE


@blp.route("/players/me/events")
class AccountEvents(MethodView):
    @blp.response(200, description="Server-Sent Events, `text/event-stream`")
    @blp.doc(security=BEARER)
    @problems(401, 503)
    @blp.doc(operationId="streamAccountEvents")
    def get(self) -> Any:
        """Everything that happens to your games, as Server-Sent Events

        One stream for all your games: `paired`, `seek_closed`,
        `game_started`, `your_turn` and `game_ended` (with your rating's
        change in a rated game); `webhook_disabled` when one of your webhooks
        failed for a day, and `account_closed` (the stream ends) when the
        account is closed or deleted. Each message's `data` is the event's JSON and
        its `id` the server's time of it in milliseconds: reconnect with it as
        `Last-Event-ID` and every game that ended meanwhile is told, then each
        live game's state again (an event may so be told twice).
        """
        player = me()
        since = _since(request.headers.get("Last-Event-ID"))
        feed = service().account_feed
        told, first = feed.first(player, since)
        # A revoked key or token ends the stream (it looks at its watch each poll).
        watch = service().revocations.watch(bearer_token(), lambda: None)

        def stream() -> Iterator[str]:
            try:
                yield from streamed()
            finally:
                if watch is not None:
                    watch.close()

        def streamed() -> Iterator[str]:
            yield "retry: 2000\n\n"
            yield from map(_message, first)
            began = quiet = time.monotonic()
            while (time.monotonic() - began < STREAM_S and not told.closed
                   and not (watch is not None and watch.revoked)):  # fmt: skip
                time.sleep(POLL_BUSY_S if time.monotonic() - quiet < BUSY_FOR_S else POLL_QUIET_S)
                events = feed.poll(player, told)
                yield from map(_message, events)
                if events:
                    quiet = time.monotonic()
                elif time.monotonic() - quiet >= KEEP_ALIVE_S:
                    quiet = time.monotonic()
                    yield ": keep-alive\n\n"

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return Response(stream_with_context(stream()), mimetype="text/event-stream",
                        headers=headers)  # fmt: skip


def _since(last_event_id: str | None) -> float | None:
    """The time a Last-Event-ID names (milliseconds), or None."""
    if last_event_id is None or not last_event_id.isdigit() or len(last_event_id) > 15:
        return None
    return int(last_event_id) / 1000


def _message(event: JSON) -> str:
    return f"id: {int(time.time() * 1000)}\ndata: {json.dumps(event)}\n\n"
