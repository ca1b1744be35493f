"""The Flask application factory, and the service the bot workers share with it."""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from . import variants, web
from .api import (
    analysis,
    apps,
    challenges,
    cors,
    docs,
    games,
    guards,
    health,
    hints,
    limits,
    metrics,
    notifications,
    oauth,
    openapi,
    pairing,
    players,
    ratings,
    scopes,
    socket,
    table,
    tournaments,
    tracing,
    turns,
)
from .api.json_provider import FastJsonProvider
from .api.problems import ProblemApi
from .archive import open_archive
from .competition import bot_ratings
from .competition.ratings import Establishment
from .outbound.addresses import Allowed
from .runtime.ttl_cache import TtlCache
from .service import GameService
from .service.people import Times
from .service.pushes import PushSettings
from .service.webhooks import Sending
from .store import make_store
from .workers.archiver import chores
from .workers.runner import RemoteWorkers, Runner


@functools.lru_cache(maxsize=1024)
def _is_coroutine_function(func: Callable[..., Any]) -> bool:
    return inspect.iscoroutinefunction(func)


class App(Flask):
    """Flask, with one change: whether a hook or a view is a coroutine function is
    worked out once per function. Flask asks it of each of them on every request,
    nine times a game's view, and each answer walked the function again. Its JSON
    is orjson's."""

    json_provider_class = FastJsonProvider

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        # A class-based view's method comes bound to a new instance every request:
        # asked of the function beneath, as the answer is the same.
        asked = getattr(func, "__func__", func)
        return self.async_to_sync(func) if _is_coroutine_function(asked) else func


def create_app(config: type | None = None, **overrides: Any) -> Flask:
    """Build the app: its store (Redis when REDIS_URL is set, else memory), API and docs.

    With in-process jobs (always so without Redis) the app starts its own bot
    workers, so ``flask run``, the test client and ``stacks-api serve`` all have
    moving bots.
    """
    from .runtime.config import Config

    app = App(__name__)
    app.config.from_object(config or Config)
    app.config.update(overrides)
    # apispec merges the whole document into these options when it renders it: each
    # app gets its own copy, or the first app's document would stick to the class.
    app.config["API_SPEC_OPTIONS"] = copy.deepcopy(app.config["API_SPEC_OPTIONS"])
    app.extensions["stacks_api.games"] = build_service(app.config)
    # Lobby pages as sent, kept a moment: a lobby many clients poll costs one read
    # and one rendering a second a process.
    app.extensions["stacks_api.lobby"] = TtlCache[bytes](app.config["LOBBY_CACHE_S"])
    api = ProblemApi(app, spec_kwargs={"marshmallow_plugin": openapi.VariantsPlugin()})
    api.register_blueprint(health.blp)
    api.register_blueprint(games.blp)
    api.register_blueprint(table.blp)
    api.register_blueprint(turns.blp)  # before players': /me/games is not a player's games
    api.register_blueprint(apps.blp)  # /players/me/apps, /tokens, /bot
    api.register_blueprint(players.blp)
    api.register_blueprint(ratings.blp)
    api.register_blueprint(pairing.blp)
    api.register_blueprint(challenges.blp)
    api.register_blueprint(notifications.blp)
    api.register_blueprint(tournaments.blp)
    api.register_blueprint(hints.blp)
    api.register_blueprint(analysis.blp)
    api.register_blueprint(metrics.blp)
    api.register_blueprint(oauth.blp)
    api.register_blueprint(socket.blp)
    socket.install(app)  # the WebSocket upgrade, beside its documented GET
    app.register_blueprint(docs.blp)
    app.register_blueprint(web.blp)
    app.extensions["stacks_api.api"] = api
    openapi.register(api.spec)
    tracing.install(app)  # first: every other hook's refusal carries the request id
    guards.install(app)
    scopes.install(app)  # after the body checks: a token's scope, before any work
    limits.install(app)
    cors.install(app)
    if app.config["TRUSTED_PROXIES"]:
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    return app


def build_service(config: Mapping[str, Any]) -> GameService:
    """The store and the service over it; with in-process jobs, the runner threads
    too (they start with the first game that needs them)."""
    store = make_store(
        config["REDIS_URL"],
        config["STORE_PREFIX"],
        config["STORE_TIMEOUT_S"],
        tuple(variants.names()),
        config["STORE_SHARDS"],
        config["STORE_REPLICA_ACKS"],
    )
    archive = open_archive(
        config["DATABASE_URL"], config["DATABASE_TIMEOUT_S"],
        migrate=config["DATABASE_MIGRATE"], starts=bot_ratings.start,
    )  # fmt: skip
    archive.ratings.opponents = config["LEADERBOARD_OPPONENTS"]
    archive.ratings.establishment = Establishment(
        config["ESTABLISHED_OPPONENTS"], config["ESTABLISHED_DAYS"] * 86400
    )
    settings = {
        "bot_budget_s": config["BOT_BUDGET_S"],
        "archive": archive,
        "archive_claim_s": config["ARCHIVE_CLAIM_S"],
        "webhook_sending": Sending(
            Allowed.parse(config["WEBHOOK_ALLOW"]),
            config["WEBHOOK_FIRST_DELAY_S"],
            config["WEBHOOK_LEASE_S"],
        ),
        "bots_alone": config["LIMIT_BOTS_ALONE"] if config["RATE_LIMITS"] else None,
        "presence": Times(*config["PRESENCE_S"]),
        "push_settings": PushSettings(
            config["VAPID_PRIVATE_KEY"],
            config["VAPID_SUBJECT"],
            Allowed.parse(config["WEBHOOK_ALLOW"]),
            config["WEBHOOK_FIRST_DELAY_S"],
            config["WEBHOOK_LEASE_S"],
        ),
    }
    if config["JOBS"] != "local":
        return GameService(store, RemoteWorkers(store.work), **settings)
    runner = Runner(store.work, lambda game_id, renew: service.turns.advance(game_id, renew),
                    threads=config["LOCAL_BOT_THREADS"])  # fmt: skip
    service = GameService(store, runner, **settings)
    runner.archiver = chores(service)
    unfinished = any(t["status"] != "finished" for t in archive.tournaments.listed())
    listened = archive.webhooks.active() or archive.pushes.listeners()
    if listened or unfinished:  # followed from the start, not the first game
        runner.start()
    return service
