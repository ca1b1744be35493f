"""Configuration, read from the environment once at start-up."""

from __future__ import annotations

import os
from importlib.metadata import version
from typing import Any, ClassVar


class Config:
    """Production defaults; every setting can be overridden by the environment."""

    # redis://host:port/db for one Redis; redis+cluster://host:port[,host:port...]
    # for a Redis Cluster (docs/scaling.md).
    REDIS_URL: str | None = os.environ.get("REDIS_URL") or None
    STORE_PREFIX = os.environ.get("STACKS_STORE_PREFIX", "stacks")
    STORE_TIMEOUT_S = float(os.environ.get("STACKS_STORE_TIMEOUT_S", "2"))
    # On a cluster: how many shards games are spread over (fixed for a deployment's
    # data: a game's shard follows from its id), and how many replicas must have a
    # write before it is answered (0: answer at once, and a failover may lose it).
    STORE_SHARDS = int(os.environ.get("STACKS_STORE_SHARDS", "16"))
    STORE_REPLICA_ACKS = int(os.environ.get("STACKS_STORE_REPLICA_ACKS", "1"))
    # The archive of ended games and the accounts: a PostgreSQL URL
    # (postgresql://user@host/db), else an SQLite file in STACKS_DATA_DIR.
    DATABASE_URL: str | None = os.environ.get("DATABASE_URL") or None
    DATABASE_TIMEOUT_S = float(os.environ.get("STACKS_DATABASE_TIMEOUT_S", "5"))
    # Bring the database up to date when the app starts ("off": `stacks-api serve`
    # has done it before starting its processes, or `stacks-api db upgrade` has).
    DATABASE_MIGRATE = os.environ.get("STACKS_DATABASE_MIGRATE", "on") != "off"
    # How long an archiving worker holds a batch of ended games: one that dies
    # holds them this long before another archives them.
    ARCHIVE_CLAIM_S = float(os.environ.get("STACKS_ARCHIVE_CLAIM_S", "30"))
    BOT_BUDGET_S = float(os.environ.get("STACKS_BOT_BUDGET_S", "5"))
    # Where bot moves and deadlines run: "workers" (worker processes; needs
    # REDIS_URL; "rq", its earlier name, still means it) or "local" (threads in
    # the web process; the only choice without Redis).
    JOBS = os.environ.get("STACKS_JOBS") or ("workers" if REDIS_URL else "local")
    LOCAL_BOT_THREADS = int(os.environ.get("STACKS_LOCAL_BOT_THREADS", "2"))
    # A lobby page is served from this process's copy for this long.
    LOBBY_CACHE_S = float(os.environ.get("STACKS_LOBBY_CACHE_S", "1"))
    SSE_KEEPALIVE_S = float(os.environ.get("STACKS_SSE_KEEPALIVE_S", "15"))
    SSE_MAX_S = float(os.environ.get("STACKS_SSE_MAX_S", "300"))

    # Limits (docs/api.md): what one client may ask of the server.
    MAX_CONTENT_LENGTH = 64 * 1024  # bytes of request body (413 past it)
    RATE_LIMITS = os.environ.get("STACKS_RATE_LIMITS", "on") != "off"
    # Per client address; "N/second|minute|hour", several joined with ";".
    LIMIT_LIST = os.environ.get("STACKS_LIMIT_LIST", "5/second;120/minute")
    LIMIT_CREATE = os.environ.get("STACKS_LIMIT_CREATE", "30/minute;300/hour")
    LIMIT_JOIN = os.environ.get("STACKS_LIMIT_JOIN", "60/minute")
    LIMIT_ACT = os.environ.get("STACKS_LIMIT_ACT", "20/second;600/minute")
    LIMIT_STREAM = os.environ.get("STACKS_LIMIT_STREAM", "60/minute")
    # WebSocket upgrades per address (each socket then counts as a stream of its
    # credential, api.socket_limits): room for a household's reconnections at once.
    LIMIT_SOCKET = os.environ.get("STACKS_LIMIT_SOCKET", "10/second;300/minute")
    LIMIT_REPLAY = os.environ.get("STACKS_LIMIT_REPLAY", "20/second;600/minute")
    LIMIT_BOTS_ALONE = os.environ.get("STACKS_LIMIT_BOTS_ALONE", "3/minute;20/hour")
    # The leaderboard lists a player who met this many different opponents in 30 days
    # (docs/ratings.md): a small club's server may ask fewer.
    LEADERBOARD_OPPONENTS = int(os.environ.get("STACKS_LEADERBOARD_OPPONENTS", "5"))
    # An opponent's result moves a rating fully once its account has met this many
    # different people in rated games and is this many days old (docs/ratings.md).
    ESTABLISHED_OPPONENTS = int(os.environ.get("STACKS_ESTABLISHED_OPPONENTS", "5"))
    ESTABLISHED_DAYS = float(os.environ.get("STACKS_ESTABLISHED_DAYS", "7"))
    # Behind N reverse proxies, take the client address from X-Forwarded-For
    # (only then: a client could otherwise claim any address).
    TRUSTED_PROXIES = int(os.environ.get("STACKS_TRUSTED_PROXIES", "0"))

    # Operations (docs/operations.md): the metrics are counted and served unless
    # "off"; GET /metrics needs "Bearer <this>" when set; one JSON access line per
    # request unless "off".
    METRICS = os.environ.get("STACKS_METRICS", "on") != "off"
    METRICS_TOKEN = os.environ.get("STACKS_METRICS_TOKEN") or None
    ACCESS_LOG = os.environ.get("STACKS_ACCESS_LOG", "on") != "off"

    # Webhooks (docs/api.md): hosts and networks a webhook may name although they
    # are private or loopback ("127.0.0.1,10.0.0.0/8"), and the first retry's wait
    # (each later one three times the last, up to 6 hours).
    WEBHOOK_ALLOW = os.environ.get("STACKS_WEBHOOK_ALLOW", "")
    # Web Push (docs/configuration.md): the VAPID private key (base64url or PEM; made
    # once and kept in the archive when unset) and the contact the push services see.
    VAPID_PRIVATE_KEY = os.environ.get("STACKS_VAPID_PRIVATE_KEY") or None
    VAPID_SUBJECT = os.environ.get("STACKS_VAPID_SUBJECT", "mailto:operator@localhost")
    # Presence (docs/api.md): online within, away within, claimable after (seconds).
    # The contract fixes 60, 600 and 240; only tests shorten them.
    PRESENCE_S = tuple(
        float(x) for x in os.environ.get("STACKS_PRESENCE_S", "60,600,240").split(",")
    )
    WEBHOOK_FIRST_DELAY_S = float(os.environ.get("STACKS_WEBHOOK_FIRST_DELAY_S", "5"))
    # A worker holds a delivery this long; one that dies lets it be sent again then.
    WEBHOOK_LEASE_S = float(os.environ.get("STACKS_WEBHOOK_LEASE_S", "30"))

    # Origins whose pages may call the API ("*", or a list joined by ","). No
    # cookies are ever used: tokens travel in the Authorization header.
    CORS_ORIGINS = os.environ.get("STACKS_CORS_ORIGINS", "*")

    API_TITLE = "Sequence & Sequence Stacks game server"
    API_VERSION = version("stacks_api")
    OPENAPI_VERSION = "3.0.3"
    OPENAPI_URL_PREFIX = "/"
    OPENAPI_JSON_PATH = "openapi.json"
    # The explorer's page is our own (api/docs.py: no inline script), over these assets.
    OPENAPI_SWAGGER_UI_PATH = None
    ASSETS_URL = "/docs/assets/"  # served by api/docs.py
    API_SPEC_OPTIONS: ClassVar[dict[str, Any]] = {
        "info": {
            "description": (
                "Play Sequence and Sequence Stacks over HTTP. Create a game, take seats "
                "(each gives a token: use it with the Authorize button as a Bearer token), "
                "then post one of `you.legal_actions`. Errors are RFC 9457 problem details "
                "with a stable `code`.\n\n"
                "The whole contract (views, actions, positions, events, errors, headers, "
                "limits) is written out in [the API guide](/docs/guide/api.md), and the "
                "rules of both games in [the rules](/docs/guide/rules.md). The explorer "
                "cannot fill an action body from your view's `legal_actions` by itself: "
                "copy one of them into the body."
            )
        },
        # Relative: the server that serves this document (generated clients take a
        # base URL of their own).
        "servers": [{"url": "/", "description": "the server that serves this document"}],
        "components": {
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A seat token (from joining) or the host token (to cancel).",
                }
            }
        },
    }


def settings(config: type = Config) -> dict[str, Any]:
    """A config class's settings as a mapping, like ``app.config``."""
    return {name: getattr(config, name) for name in dir(config) if name.isupper()}


class TestConfig(Config):
    """For tests: the in-memory store unless a test passes REDIS_URL itself."""

    TESTING = True
    REDIS_URL = None
    DATABASE_URL = None  # an SQLite file in STACKS_DATA_DIR, unless a test passes one
    JOBS = "local"  # Flask's test client has no worker processes beside it
    RATE_LIMITS = False  # the abuse tests turn them on
    BOT_BUDGET_S = 1.0  # short jobs: a stopped app's workers end soon
    LOBBY_CACHE_S = 0.0  # tests list what they just created
    # Fresh test accounts count fully as opponents (the farming tests ask for the rule).
    ESTABLISHED_OPPONENTS = 0
    ESTABLISHED_DAYS = 0.0
    ACCESS_LOG = False  # a test that reads the access lines turns it on
