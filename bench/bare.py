"""The baseline of bench/wrk.py: a Flask route that answers one Redis GET.

    gunicorn --worker-class stacks_api.runtime.serving.Worker bench.bare:app   (REDIS_URL set)

``GET /bare/<game_id>`` reads the game's stored state with one GET and sends
it back as it is: the least any view of a game stored in Redis can do, served
by the same gunicorn worker as ``stacks-api serve``.
"""

from __future__ import annotations

import os

import redis
from flask import Flask, Response

from stacks_api.store.keys import Keys

app = Flask(__name__)
client = redis.Redis.from_url(os.environ["REDIS_URL"])
keys = Keys(os.environ.get("STACKS_STORE_PREFIX", "stacks"), 0)


@app.get("/bare/<game_id>")
def bare(game_id: str) -> Response:
    raw = client.get(keys.state(game_id))
    if raw is None:
        return Response(status=404)
    return Response(raw, mimetype="application/json")


def hooked() -> Flask:
    """The same route inside the server's own app (``bench.bare:hooked()``): every
    hook a request of the API passes (request id, metrics, CORS, limits, body
    checks) and its routing, around the same one GET. Its rate bounds what any
    view can reach."""
    from stacks_api.app import create_app
    from stacks_api.runtime import logs

    logs.configure()
    server = create_app()
    server.add_url_rule("/api/v1/bare/<game_id>", "bare", bare)
    return server
