"""The Flask application factory."""

from __future__ import annotations

from typing import Any

from flask import Flask

from .api import docs, games, health
from .api.problems import ProblemApi
from .service import GameService
from .store import make_store


def create_app(config: type | None = None, **overrides: Any) -> Flask:
    """Build the app: its store (Redis when REDIS_URL is set, else memory), API and docs."""
    from .config import Config

    app = Flask(__name__)
    app.config.from_object(config or Config)
    app.config.update(overrides)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep the documented key order
    store = make_store(
        app.config["REDIS_URL"], app.config["STORE_PREFIX"], app.config["STORE_TIMEOUT_S"]
    )
    app.extensions["stacks_api.games"] = GameService(store, bot_budget_s=app.config["BOT_BUDGET_S"])
    api = ProblemApi(app)
    api.register_blueprint(health.blp)
    api.register_blueprint(games.blp)
    app.register_blueprint(docs.blp)
    app.extensions["stacks_api.api"] = api
    return app
