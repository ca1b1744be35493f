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
        """Whether the server and its store answer"""
        games = current_app.extensions["stacks_api.games"]
        kind = games.health()
        streams = server_streams(games.open_streams)
        return {"status": "ok", "store": kind, "open_streams": streams, "archive": games.backlog()}
