"""``stacks-api worker``: one process that runs one runner loop until TERM or INT.

Bots think on this process's own core (processes, not threads under one GIL).
On TERM the loop stops claiming; a game under way is released after its current
step (a bot decision takes at most 2 s), and an idle worker exits at once. A
worker killed outright loses nothing: its lease runs out and another takes over.
"""

from __future__ import annotations

import signal
from types import FrameType

from ..service import GameService
from .archiver import chores
from .runner import Runner, owner_name


def run_worker(service: GameService) -> None:
    """Advance due games in this process until TERM or INT, and archive ended ones
    (a thread beside the runner loop)."""
    runner = Runner(service.work, service.turns.advance, threads=0)
    archiver = None if service.archiving is None else chores(service)
    if archiver is not None:
        archiver.start()
    busy = [False]

    def stop(signum: int, frame: FrameType | None) -> None:
        runner.request_stop()
        if archiver is not None:
            archiver.stop()  # a batch under way is either committed or claimed again
        if not busy[0]:  # waiting for work: nothing to hand back, leave now
            raise SystemExit(0)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    runner.serve(owner_name(0), busy)
