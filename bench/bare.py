"""The baseline of bench/wrk.py: a Flask route that answers one Redis GET.

    gunicorn --worker-class stacks_api.serving.Worker bench.bare:app   (REDIS_URL set)

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
