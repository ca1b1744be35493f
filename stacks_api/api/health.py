"""Health check for load balancers and the container HEALTHCHECK."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView

from .blueprint import Blueprint
from .schemas import HealthSchema
from .stream import server_streams

blp = Blueprint("health", __name__, url_prefix="/api/v1", description="Service health")


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    @blp.doc(operationId="getHealth", security=[])
    def get(self) -> Any:
        """Whether the server and its store answer

        `status` is `ok`, or `degraded` while the archive's database does not
        answer: games go on in the live store (accounts the server has seen
        play on), ended games wait in the backlog, and what needs the
        database (new accounts, histories, ratings) answers 503 meanwhile.
        """
        games = current_app.extensions["stacks_api.games"]
        kind = games.health()
        streams = server_streams(games.open_streams)
        archive = games.backlog()
        status = "ok" if archive["reachable"] else "degraded"
        return {"status": status, "store": kind, "open_streams": streams, "archive": archive}
