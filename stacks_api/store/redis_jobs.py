"""Jobs for the workers on Redis (or a cluster): hints, analyses. One plain command
each, so every key may sit in a slot of its own.

Keys (``Keys.job``, one set per kind): ``<kind>:<key>`` the result (kept
``KEEP_S``), ``<kind>:<key>:asked`` set when it was queued (for ``ASKED_S``: a
worker that died with it leaves it to be asked again), ``<kind>:queue`` the
queue the workers pop.
"""

from __future__ import annotations

import json

from redis.utils import str_if_bytes

from ..model.record import JSON
from .keys import Keys
from .memory_jobs import ASKED_S, KEEP_S
from .redis_connect import Connection
from .redis_errors import reachable


class RedisJobs:
    def __init__(self, connection: Connection, keys: Keys, kind: str) -> None:
        self.client = connection.client
        self.keys = keys
        self.kind = kind

    @reachable()
    def get(self, key: str) -> JSON | None:
        raw = self.client.get(self.keys.job(self.kind, key))
        if raw is None:
            return None
        found: JSON = json.loads(raw)
        return found

    @reachable()
    def ask(self, key: str) -> bool:
        if not self.client.set(
            self.keys.job(self.kind, f"{key}:asked"), "1", nx=True, ex=int(ASKED_S)
        ):
            return False
        self.client.lpush(self.keys.job_queue(self.kind), key)
        return True

    @reachable()
    def claim(self, limit: int) -> list[str]:
        popped = self.client.rpop(self.keys.job_queue(self.kind), limit) or []
        return [str_if_bytes(k) for k in popped]

    @reachable()
    def put(self, key: str, result: JSON) -> None:
        self.client.set(self.keys.job(self.kind, key), json.dumps(result), ex=int(KEEP_S))
