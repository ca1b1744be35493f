"""Revoked credentials reach the streams (and sockets) they opened.

A request meets a revoked key or token at once (``Table.caller`` looks it up
every request); a stream or socket opened earlier stays open, so each one opened
with a key, an app's or a personal token registers here (``watch``). Whoever
revokes one (a key deleted, an app's access revoked, an account deleted) bumps
the store's count of revocations (``revoked``); one watcher per process reads
that count every ``EVERY_S`` and, when it moved, looks up again the distinct
credentials of this process's open streams and interrupts those no longer
allowed. Nothing is read while nothing is revoked but one small key a second a
process, and a revocation reaches its streams within about ``EVERY_S`` plus one
lookup.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from ..model import scopes
from ..model.refusals import Refusal
from ..model.tokens import is_player_key
from .ports import Unavailable
from .table import Table

log = logging.getLogger(__name__)
EVERY_S = 1.0


class Watch:
    """One open stream's credential: ``revoked`` once it no longer holds."""

    def __init__(self, desk: Revocations, token: str, interrupt: Callable[[], None]) -> None:
        self.desk, self.token, self.interrupt = desk, token, interrupt
        self.revoked = False

    def close(self) -> None:
        self.desk._forget(self)


class Revocations:
    def __init__(self, table: Table, every_s: float = EVERY_S) -> None:
        self.table = table
        self.every_s = every_s
        self._lock = threading.Lock()
        self._watches: set[Watch] = set()
        self._thread: threading.Thread | None = None
        self._seen = -1

    def revoked(self) -> None:
        """A credential was revoked: every process looks again at its open streams'."""
        self.table.store.revocations.bump()

    def watch(self, token: str | None, interrupt: Callable[[], None]) -> Watch | None:
        """Follow a stream's credential (None: a seat's token or none, which no one
        revokes); ``interrupt`` wakes the stream once it is revoked."""
        if token is None or not (scopes.is_granted_token(token) or is_player_key(token)):
            return None
        watch = Watch(self, token, interrupt)
        with self._lock:
            self._watches.add(watch)
            if self._thread is None:  # a thread, or under gevent a greenlet
                self._seen = self._count()
                self._thread = threading.Thread(target=self._serve, name="stacks-api-revocations",
                                                daemon=True)  # fmt: skip
                self._thread.start()
        return watch

    def _forget(self, watch: Watch) -> None:
        with self._lock:
            self._watches.discard(watch)

    def _count(self) -> int:
        try:
            return self.table.store.revocations.count()
        except Unavailable:
            return self._seen

    def _serve(self) -> None:
        stop = threading.Event()
        while not stop.wait(self.every_s):
            count = self._count()
            if count != self._seen:
                self._seen = count
                self.look_again()

    def look_again(self) -> int:
        """Interrupt the open streams whose credential no longer holds; how many."""
        with self._lock:
            watches = list(self._watches)
        allowed: dict[str, bool] = {}
        ended = 0
        for watch in watches:
            if watch.token not in allowed:
                allowed[watch.token] = self._holds(watch.token)
            if not allowed[watch.token] and not watch.revoked:
                watch.revoked = True
                watch.interrupt()
                ended += 1
        return ended

    def _holds(self, token: str) -> bool:
        try:
            self.table.look_up(token)
        except Refusal:
            return False
        except Unavailable:  # not known now: looked at again in a second
            log.warning("revocations: the archive is unavailable; looking again soon")
            self._seen = -1
        return True
