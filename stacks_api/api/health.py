"""Health check for load balancers and the container HEALTHCHECK."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from ..problems import Problem
from ..store import StoreDegraded, StoreUnavailable
from .problems import problem_response
from .schemas import HealthSchema
from .stream import open_streams

blp = Blueprint("health", __name__, url_prefix="/api/v1", description="Service health")


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    def get(self) -> Any:
        """Whether the server and its store answer"""
        store = current_app.extensions["stacks_api.games"].store
        try:
            store.ping()
        except StoreDegraded:
            return problem_response(
                Problem(503, "degraded", f"the {store.kind} store answers but refuses writes")
            )
        except StoreUnavailable:
            return problem_response(
                Problem(503, "store_unavailable", f"the {store.kind} store cannot be reached")
            )
        return {"status": "ok", "store": store.kind, "open_streams": open_streams()}
