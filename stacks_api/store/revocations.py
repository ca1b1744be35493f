"""A count of credentials revoked, server-wide: a process that sees it move looks
again at the tokens its open streams and sockets were opened with. In Redis (one
plain key), or in this process's memory."""

from __future__ import annotations

import threading
from typing import Protocol

from .redis_connect import Connection
from .redis_errors import reachable


class RevocationCount(Protocol):
    """How many credentials were revoked, server-wide (``store.revocations``)."""

    def bump(self) -> None: ...

    def count(self) -> int: ...


class MemoryRevocations:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0

    def bump(self) -> None:
        with self._lock:
            self._count += 1

    def count(self) -> int:
        return self._count


class RedisRevocations:
    def __init__(self, connection: Connection, key: str) -> None:
        self.client = connection.client
        self.key = key

    @reachable()
    def bump(self) -> None:
        self.client.incr(self.key)

    @reachable()
    def count(self) -> int:
        return int(self.client.get(self.key) or 0)
