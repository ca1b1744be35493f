"""Hints on Redis (or a cluster): one plain command each, so every key may sit in a
slot of its own.

Keys (``Keys.hint``): ``hint:<key>`` the computed hint (kept ``KEEP_S``),
``hint:<key>:asked`` set when it was queued (for ``ASKED_S``: a worker that died
with it leaves it to be asked again), ``hints`` the queue the workers pop.
"""

from __future__ import annotations

import json

from redis.utils import str_if_bytes

from ..record import JSON
from .keys import Keys
from .memory_hints import ASKED_S, KEEP_S
from .redis_connect import Connection
from .redis_errors import reachable


class RedisHints:
    def __init__(self, connection: Connection, keys: Keys) -> None:
        self.client = connection.client
        self.keys = keys

    @reachable()
    def get(self, key: str) -> JSON | None:
        raw = self.client.get(self.keys.hint(key))
        if raw is None:
            return None
        found: JSON = json.loads(raw)
        return found

    @reachable()
    def ask(self, key: str) -> bool:
        if not self.client.set(self.keys.hint(f"{key}:asked"), "1", nx=True, ex=int(ASKED_S)):
            return False
        self.client.lpush(self.keys.hint_queue(), key)
        return True

    @reachable()
    def claim(self, limit: int) -> list[str]:
        popped = self.client.rpop(self.keys.hint_queue(), limit) or []
        return [str_if_bytes(k) for k in popped]

    @reachable()
    def put(self, key: str, hint: JSON) -> None:
        self.client.set(self.keys.hint(key), json.dumps(hint), ex=int(KEEP_S))
