"""The courier: sends the server's own requests, many at once, and lets no
destination or account hold more than its share.

Whoever has something to send first takes a ``Slot`` (``reserve``): there is
one while fewer than ``in_flight`` letters are under way in all, fewer than
``per_origin`` to the letter's destination (scheme, host and port, as the URL
writes them: known without asking DNS) and fewer than ``per_owner`` for the
account it is sent for. Only then does it take the work from its queue (a
lease on a delivery), so nothing waits in memory for a slot, and sends it on
the slot. Each letter goes out on a thread of the courier's own, checked
against the operator's allowed addresses there (resolving a name can be slow
too) and bounded by one deadline (``stacks_api.outbound.http``); ``done`` is
called there with the answer. A receiver that never answers holds its slots
for the deadline, and holds nothing of anybody else.
"""

from __future__ import annotations

import logging
import queue
import ssl
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from . import http
from .addresses import NOTHING_ALLOWED, Allowed, Refused, Resolve, check, resolve

log = logging.getLogger(__name__)

IN_FLIGHT = 32
PER_ORIGIN = 2
PER_OWNER = 4
DEADLINE_S = 10.0
MAX_BODY = 64 * 1024

Done = Callable[[http.Answer], None]


@dataclass(frozen=True)
class Letter:
    """A POST to send for ``owner`` (the account it is sent for)."""

    url: str
    body: bytes
    owner: str
    headers: Mapping[str, str] = field(default_factory=dict)


def origin(url: str) -> str:
    """The destination a limit counts: scheme, host and port as the URL writes them."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return url
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"


@dataclass(frozen=True)
class Rules:
    """How much the courier sends at once, and how long an attempt may take."""

    in_flight: int = IN_FLIGHT
    per_origin: int = PER_ORIGIN
    per_owner: int = PER_OWNER
    deadline_s: float = DEADLINE_S
    max_body: int = MAX_BODY
    allowed: Allowed = NOTHING_ALLOWED


class Slot:
    """Room for one letter to one destination for one owner; ``send`` uses it,
    ``release`` gives it back unused."""

    def __init__(self, courier: Courier, origin: str, owner: str) -> None:
        self.courier, self.origin, self.owner = courier, origin, owner
        self._used = False

    def send(self, letter: Letter, done: Done) -> None:
        assert not self._used and origin(letter.url) == self.origin, "one letter a slot"
        self._used = True
        self.courier._post(self, letter, done)

    def release(self) -> None:
        if not self._used:
            self._used = True
            self.courier._free(self)


class Courier:
    def __init__(
        self,
        rules: Rules = Rules(),
        resolver: Resolve = resolve,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.rules, self.resolver, self.tls = rules, resolver, tls
        self._lock = threading.Lock()
        self._freed = threading.Condition(self._lock)
        self._origins: Counter[str] = Counter()
        self._owners: Counter[str] = Counter()
        self._busy = 0
        self._work: queue.SimpleQueue[tuple[Slot, Letter, Done] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []

    def reserve(self, url: str, owner: str) -> Slot | None:
        """A slot for a letter to ``url`` for ``owner``, or None while there is no room."""
        where, rules = origin(url), self.rules
        with self._lock:
            if (self._busy >= rules.in_flight or self._origins[where] >= rules.per_origin
                    or self._owners[owner] >= rules.per_owner):  # fmt: skip
                return None
            self._busy += 1
            self._origins[where] += 1
            self._owners[owner] += 1
            if len(self._threads) < min(self._busy, rules.in_flight):
                self._start_thread()
        return Slot(self, where, owner)

    def room(self) -> int:
        """How many more letters could go out now (to destinations with room)."""
        with self._lock:
            return self.rules.in_flight - self._busy

    def wait_for_room(self, timeout: float) -> None:
        """Return once a slot was freed, or after ``timeout``."""
        with self._freed:
            self._freed.wait(timeout)

    def under_way(self) -> int:
        with self._lock:
            return self._busy

    def stop(self) -> None:
        """Let the threads end once the letters under way are sent."""
        for _ in self._threads:
            self._work.put(None)

    # -- the slots' side ------------------------------------------------------

    def _post(self, slot: Slot, letter: Letter, done: Done) -> None:
        self._work.put((slot, letter, done))

    def _free(self, slot: Slot) -> None:
        with self._lock:
            self._busy -= 1
            self._origins[slot.origin] -= 1
            self._owners[slot.owner] -= 1
            if not self._origins[slot.origin]:
                del self._origins[slot.origin]
            if not self._owners[slot.owner]:
                del self._owners[slot.owner]
            self._freed.notify_all()

    def _start_thread(self) -> None:
        name = f"stacks-api-courier-{len(self._threads)}"
        thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _serve(self) -> None:
        while (work := self._work.get()) is not None:
            slot, letter, done = work
            try:
                answer = self.deliver(letter)
                done(answer)
            except Exception:  # a failing callback must not take the thread with it
                log.exception("courier: handling an answer failed")
            finally:
                self._free(slot)

    def deliver(self, letter: Letter) -> http.Answer:
        """Send one letter now, on the calling thread (the slots' threads call this)."""
        try:
            target = check(letter.url, self.rules.allowed, self.resolver)
        except Refused as refused:
            return http.Answer(error=str(refused)[:200])
        return http.post(target, letter.headers, letter.body, self.rules.deadline_s,
                         self.rules.max_body, self.tls)  # fmt: skip
