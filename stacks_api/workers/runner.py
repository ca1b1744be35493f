"""The runner: whoever is alive advances every game that needs background work.

The stored game is the truth about what must happen next. Each write of a game
also writes, in the same atomic step, when the game next needs a worker
(``due_at``: now when a bot is to move, the deadline of a block window or a
clock otherwise) into the store's work queue (``WorkQueue``). A runner thread:

1. claims the most overdue game nobody holds, with a **lease** of ``LEASE_S``;
2. advances it (``GameService.advance``), renewing the lease after every step;
3. releases it; the release sets the game's queue entry from its stored
   record again, so an entry can never disagree with the game for long.

A worker that dies or hangs stops renewing: its lease runs out and the next
poll of any live runner takes the game over. A late commit from the hung one
is refused by the version check, and its release by the lease's owner check.
Every runner also repairs, a batch at a time, entries that went missing (the
queue is rebuilt from the active games' own records), so even a lost queue
write strands nothing. The bound: a game waits at most ``LEASE_S + POLL_S``
after its worker died, plus one bot decision (docs/operations.md).
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable

from ..service.ports import Unavailable, WorkQueue
from .archiver import Archiver

log = logging.getLogger(__name__)
LEASE_S = 5.0  # a claimed game is its worker's for this long after its last renewal
POLL_S = 1.0  # an idle runner looks at the queue at least this often
REPAIR_EVERY_S = 2.0  # how often an idle runner offers to repair the queue
STORE_RETRY_S = 1.0  # after a store failure, a runner waits this long before trying again

# ``advance(game_id, renew)``: renew() renews the lease and says whether to go on.
Advance = Callable[[str, Callable[[], bool]], None]


class RemoteWorkers:
    """``Jobs`` when the runners are other processes: ring their doorbell."""

    def __init__(self, queue: WorkQueue) -> None:
        self.queue = queue

    def wake(self) -> None:
        self.queue.ring()

    def ended(self) -> None:
        return None  # the worker processes' archivers look at the outbox often

    def stop(self) -> None:
        return None


def owner_name(thread: int) -> str:
    """Who holds a lease: host, process and thread, plus a nonce for restarted processes."""
    return f"{socket.gethostname()}:{os.getpid()}:{thread}:{secrets.token_hex(3)}"


class Runner:
    """``threads`` runner loops over one work queue, in this process."""

    def __init__(
        self,
        queue: WorkQueue,
        advance: Advance,
        threads: int = 1,
        lease_s: float = LEASE_S,
        clock: Callable[[], float] = time.time,
        archiver: Archiver | None = None,
    ) -> None:
        self.queue, self.advance, self.threads = queue, advance, threads
        self.archiver = archiver
        self.lease_s, self.clock = lease_s, clock
        self._stop_requested = False  # a plain flag: a signal handler may set it
        self._started = False
        self._start_lock = threading.Lock()
        self._last_repair = 0.0

    # -- running in the background (the web process, with in-process workers) ----

    def wake(self) -> None:
        """Start the threads on first use, then ring the queue's doorbell."""
        self.start()
        self.queue.ring()

    def ended(self) -> None:
        """A game ended: start the threads on first use, and hurry the archiver."""
        self.start()
        if self.archiver is not None:
            self.archiver.nudge()

    def start(self) -> None:
        with self._start_lock:
            if self._started or self._stop_requested or self.threads <= 0:
                return
            self._started = True
            if self.archiver is not None:
                self.archiver.start()
            for n in range(self.threads):
                name = f"stacks-api-runner-{n}"
                threading.Thread(target=self.serve, args=(owner_name(n),), name=name,
                                 daemon=True).start()  # fmt: skip

    def stop(self) -> None:
        """Claim nothing more; a game under way is released after its current step.
        Works with the store down too: the ring only hurries idle threads, which see
        the stop by themselves within about a second (``POLL_S``, ``STORE_RETRY_S``)."""
        self.request_stop()
        if self.archiver is not None:
            self.archiver.stop()
        with contextlib.suppress(Unavailable):
            self.queue.ring()  # an idle thread wakes to see it

    def request_stop(self) -> None:
        """``stop`` without the ring: safe inside a signal handler."""
        self._stop_requested = True

    @property
    def stopping(self) -> bool:
        return self._stop_requested

    # -- the loop -----------------------------------------------------------------

    def serve(self, owner: str, busy: list[bool] | None = None) -> None:
        """Claim and advance games until ``stop``; ``busy[0]`` says whether a claim
        or a game is under way (a worker process's TERM handler reads it)."""
        busy = busy if busy is not None else [False]
        while not self.stopping:
            busy[0] = True
            try:
                claimed = self.queue.claim(self.clock(), owner, self.lease_s)
                if claimed is not None:
                    self._work(claimed, owner)
                    continue
                self._repair_if_due()
            except Unavailable as err:
                log.warning("runner: the store is unavailable (%s)", err)
                time.sleep(STORE_RETRY_S)
                continue
            except Exception:  # a runner that died here would strand every game it would take
                log.exception("runner: the work queue failed")
                time.sleep(STORE_RETRY_S)
                continue
            finally:
                busy[0] = False
            self._idle()

    def _idle(self) -> None:
        """Wait for the doorbell, the next deadline, or ``POLL_S``, whichever is first."""
        try:
            due = self.queue.next_due()
        except Unavailable:
            due = None
        wait = POLL_S
        if due is not None and due > self.clock():
            wait = min(POLL_S, max(0.005, due - self.clock()))
        try:
            self.queue.wait(wait)
        except Unavailable:
            time.sleep(STORE_RETRY_S)

    def _work(self, game_id: str, owner: str) -> None:
        lease = Lease(self, game_id, owner)
        try:
            self.advance(game_id, lease.renew)
        except Unavailable:
            raise  # the lease runs out and someone tries again
        except Exception:  # one game's failure must not stop the runner
            # Not released: the lease runs out and the game is tried again in
            # LEASE_S, so a game that keeps failing cannot keep a runner busy.
            log.exception("advancing game %s failed", game_id)
            return
        self.queue.release(game_id, owner)

    def _repair_if_due(self) -> None:
        now = self.clock()
        if now - self._last_repair >= REPAIR_EVERY_S:
            self._last_repair = now
            repaired = self.queue.repair(now, REPAIR_EVERY_S)
            if repaired:
                log.warning("runner: %d game(s) had lost their queue entry; restored", repaired)


class Lease:
    """One claimed game: renewing it proves this worker still lives and still owns it."""

    def __init__(self, runner: Runner, game_id: str, owner: str) -> None:
        self.runner, self.game_id, self.owner = runner, game_id, owner

    def renew(self) -> bool:
        """Renew the lease; False when it was lost (taken over) or the runner stops."""
        runner = self.runner
        if runner.stopping:
            return False
        return runner.queue.extend(self.game_id, self.owner, runner.lease_s, runner.clock())
