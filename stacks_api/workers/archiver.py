"""The archiver: a thread that moves ended games from the live store's outbox
into the archive (``service.archiving``), in every process that runs workers.

It drains a batch whenever one waits, sleeps ``IDLE_S`` (or until told that a
game ended) when none does, and every ``SWEEP_EVERY_S`` looks for ended games
whose outbox entry went missing. It also makes quick pairing's pass over every
pool every ``PAIR_EVERY_S`` (``service.pairing``: seekers whose ranges widened
while nobody new came are paired too), moves every tournament on every
``TOURNAMENTS_EVERY_S`` (``service.tournaments``), settles the accounts operators closed every
``CLOSURES_EVERY_S`` (``service.closures``), and computes the hints players asked for
(``service.hints``). Analyses of finished games, which take tens of seconds, run
in a thread of their own beside it, and so do notifications
(``service.notifications``: finding account events and handing them to the
courier). While the store or the database is down it
logs once per failure, waits ``RETRY_S`` and tries again: games go on ending
normally meanwhile and wait in the outbox.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from ..service import GameService
from ..service.archiving import Archiving
from ..service.notifications import Notifications
from ..service.ports import Unavailable

log = logging.getLogger(__name__)
IDLE_S = 0.25  # an idle archiver looks at the outbox at least this often
RETRY_S = 1.0  # after a failure of the store or the database
SWEEP_EVERY_S = 60.0
PAIR_EVERY_S = 1.0
TOURNAMENTS_EVERY_S = 1.0
CLOSURES_EVERY_S = 5.0
WEBHOOK_EVERY_S = 0.5
BATCH = 100


class Archiver:
    def __init__(
        self,
        archiving: Archiving,
        pair: Callable[[float], object] | None = None,
        hint: Callable[[], int] | None = None,
        analyse: Callable[[], int] | None = None,
        clock: Callable[[], float] = time.time,
        notifications: Notifications | None = None,
        tournaments: Callable[[float], object] | None = None,
        closures: Callable[[float], object] | None = None,
    ) -> None:
        self.archiving = archiving
        self.closures = closures
        self.notifications = notifications
        self.tournaments = tournaments
        self.pair = pair
        self.hint = hint
        self.analyse = analyse
        self.clock = clock
        self._stop = threading.Event()
        self._nudge = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def start(self) -> None:
        with self._start_lock:
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(target=self.serve, name="stacks-api-archiver",
                                                daemon=True)  # fmt: skip
                self._thread.start()
                if self.analyse is not None:  # a long job: a thread of its own
                    threading.Thread(target=self._analyst, name="stacks-api-analyst",
                                     daemon=True).start()  # fmt: skip
                if self.notifications is not None:  # hands work to the courier's threads
                    threading.Thread(target=self._courier, name="stacks-api-notifications",
                                     daemon=True).start()  # fmt: skip

    def _courier(self) -> None:
        """Find new account events for the channels that reach accounts (webhooks)
        and hand what is due to the courier, every ``WEBHOOK_EVERY_S`` or as soon as
        the courier has room again (it sends on threads of its own: nothing here
        waits on a receiver)."""
        notifications = self.notifications
        assert notifications is not None
        while not self._stop.is_set():
            try:
                notifications.dispatch(self.clock())
                if notifications.send():
                    continue
            except Unavailable as err:
                log.warning("notifications: %s; trying again in %g s", err, RETRY_S)
            except Exception:  # the thread must live on: deliveries wait in the queue
                log.exception("notifications: a pass failed")
            notifications.courier.wait_for_room(WEBHOOK_EVERY_S)

    def _analyst(self) -> None:
        """Analyse asked-for games one at a time, looking for one every ``IDLE_S``."""
        assert self.analyse is not None
        while not self._stop.is_set():
            try:
                if self.analyse():
                    continue
            except Unavailable as err:
                log.warning("analyst: %s; trying again in %g s", err, RETRY_S)
            except Exception:  # the thread must live on: the next game may analyse
                log.exception("analyst: analysing failed")
            self._stop.wait(IDLE_S * 4)

    def nudge(self) -> None:
        """A game just ended here: look at the outbox now."""
        self._nudge.set()

    def stop(self) -> None:
        self._stop.set()
        self._nudge.set()

    def serve(self) -> None:
        next_sweep = next_pairing = next_tournaments = next_closures = self.clock()
        while not self._stop.is_set():
            try:
                if self.clock() >= next_sweep:
                    next_sweep = self.clock() + SWEEP_EVERY_S
                    self.archiving.sweep(self.clock())
                if self.closures is not None and self.clock() >= next_closures:
                    next_closures = self.clock() + CLOSURES_EVERY_S
                    self.closures(self.clock())
                if self.pair is not None and self.clock() >= next_pairing:
                    next_pairing = self.clock() + PAIR_EVERY_S
                    self.pair(self.clock())
                if self.tournaments is not None and self.clock() >= next_tournaments:
                    next_tournaments = self.clock() + TOURNAMENTS_EVERY_S
                    self.tournaments(self.clock())
                if self.hint is not None and self.hint():
                    continue  # more may be queued
                if self.archiving.drain(self.clock(), BATCH) == BATCH:
                    continue  # more may wait
            except Unavailable as err:
                log.warning("archiver: %s; trying again in %g s", err, RETRY_S)
                self._stop.wait(RETRY_S)
                continue
            except Exception:  # an archiver that died here would leave games in the outbox
                log.exception("archiver: archiving failed")
                self._stop.wait(RETRY_S)
                continue
            self._nudge.wait(IDLE_S)
            self._nudge.clear()


def chores(service: GameService) -> Archiver:
    """The background work beside the runners of a service that has an archive:
    archiving, pairing, tournaments, hints, analyses and webhooks."""
    assert service.archiving is not None
    return Archiver(service.archiving, service.pairing.run, service.hints.compute,
                    service.analyses.compute, notifications=service.notifications,
                    tournaments=service.tournaments.step,
                    closures=service.closures.sweep)  # fmt: skip
