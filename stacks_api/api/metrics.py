"""``GET /metrics``: the Prometheus text format, for the whole server (every
process of ``serve`` counted; ``stacks_api.runtime.metrics``)."""

from __future__ import annotations

import hmac
from typing import Any

from flask import Response, current_app
from flask.views import MethodView

from ..model.refusals import Refusal
from ..runtime import metrics
from ..service import GameService
from .auth import BEARER, bearer_token
from .blueprint import Blueprint
from .games import problems
from .stream import server_streams

blp = Blueprint("metrics", __name__, url_prefix="", description="Operations")


def _figures() -> dict[str, Any]:
    games: GameService = current_app.extensions["stacks_api.games"]
    return {**games.gauges(), "streams_open": server_streams(games.open_streams)}


@blp.route("/metrics")
class Metrics(MethodView):
    @blp.doc(
        operationId="getMetrics",
        security=[{}, *BEARER],  # the token only when the operator set one
        responses={"200": {"description": "The figures, in the Prometheus text format",
                           "content": {metrics.CONTENT_TYPE: {"schema": {"type": "string"}}}}},
    )  # fmt: skip
    @problems(401, 404, 503)
    def get(self) -> Any:
        """The server's figures for Prometheus

        Needs `Authorization: Bearer <STACKS_METRICS_TOKEN>` when the operator
        set that token; open otherwise. docs/operations.md lists the figures.
        """
        if not current_app.config["METRICS"]:
            raise Refusal("not_found", "this server counts no metrics (STACKS_METRICS=off)")
        wanted = current_app.config["METRICS_TOKEN"]
        if wanted:
            sent = bearer_token(required=True) or ""
            if not hmac.compare_digest(sent.encode(), wanted.encode()):
                raise Refusal("unauthorized", "send the metrics token as 'Bearer <token>'")
        body = metrics.page(metrics.ServerGauges(_figures))
        return Response(body, content_type=metrics.CONTENT_TYPE,
                        headers={"Cache-Control": "no-store"})  # fmt: skip
