"""The courier: sends the server's own requests, many at once, and lets no
destination or account hold more than its share.

Whoever has something to send first takes a ``Slot`` (``reserve``): there is
one while fewer than ``in_flight`` letters are under way in all, fewer than
``per_origin`` to the letter's destination (scheme, host and port, as the URL
writes them: known without asking DNS) and fewer than ``per_owner`` for the
account it is sent for. Two rules keep accounts that stall from starving the
rest: the last ``reserved`` slots go only to an account with nothing under way,
and a destination that just failed (no answer, or a 5xx or 429) is sick for
``sick_s``: it gets one letter at a time, and all sick destinations together at
most ``sick_in_flight``. Only then does it take the work from its queue (a
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
import time
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
RESERVED = 8  # slots kept for accounts with nothing under way
SICK_IN_FLIGHT = 8  # letters to failing destinations, in all
SICK_S = 60.0
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
    reserved: int = RESERVED
    sick_in_flight: int = SICK_IN_FLIGHT
    sick_s: float = SICK_S
    deadline_s: float = DEADLINE_S
    max_body: int = MAX_BODY
    allowed: Allowed = NOTHING_ALLOWED


class Slot:
    """Room for one letter to one destination for one owner; ``send`` uses it,
    ``release`` gives it back unused."""

    def __init__(self, courier: Courier, origin: str, owner: str, sick: bool = False) -> None:
        self.courier, self.origin, self.owner, self.sick = courier, origin, owner, sick
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
        self._sick: dict[str, float] = {}  # origin -> until when it counts as failing
        self._sick_busy = 0
        self._work: queue.SimpleQueue[tuple[Slot, Letter, Done] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []

    def reserve(self, url: str, owner: str) -> Slot | None:
        """A slot for a letter to ``url`` for ``owner``, or None while there is no room."""
        where, rules = origin(url), self.rules
        with self._lock:
            # An account with letters under way leaves the reserved slots to others.
            room = rules.in_flight - (rules.reserved if self._owners[owner] else 0)
            sick = self._sick.get(where, 0.0) > time.monotonic()
            if (self._busy >= room or self._origins[where] >= rules.per_origin
                    or self._owners[owner] >= rules.per_owner):  # fmt: skip
                return None
            if sick and (self._origins[where] or self._sick_busy >= rules.sick_in_flight):
                return None
            self._busy += 1
            self._sick_busy += sick
            self._origins[where] += 1
            self._owners[owner] += 1
            if len(self._threads) < min(self._busy, rules.in_flight):
                self._start_thread()
        return Slot(self, where, owner, sick)

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

    def _free(self, slot: Slot, answer: http.Answer | None = None) -> None:
        with self._lock:
            if answer is not None:  # how the destination did: sick, or well again
                if answer.status is None or answer.status >= 500 or answer.status == 429:
                    self._sick[slot.origin] = time.monotonic() + self.rules.sick_s
                else:
                    self._sick.pop(slot.origin, None)
                if len(self._sick) > 10_000:  # forget the oldest failures first
                    for gone in sorted(self._sick, key=self._sick.__getitem__)[:5_000]:
                        del self._sick[gone]
            self._busy -= 1
            self._sick_busy -= slot.sick
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
            answer = None
            try:
                try:
                    answer = self.deliver(letter)
                except Exception as failure:  # still an outcome: the attempt is recorded
                    log.exception("courier: sending failed")
                    answer = http.Answer(error=f"not sent: {type(failure).__name__}")
                done(answer)
            except Exception:  # a failing callback must not take the thread with it
                log.exception("courier: handling an answer failed")
            finally:
                self._free(slot, answer)

    def deliver(self, letter: Letter) -> http.Answer:
        """Send one letter now, on the calling thread (the slots' threads call this)."""
        try:
            target = check(letter.url, self.rules.allowed, self.resolver)
        except Refused as refused:
            return http.Answer(error=str(refused)[:200])
        return http.post(target, letter.headers, letter.body, self.rules.deadline_s,
                         self.rules.max_body, self.tls)  # fmt: skip
