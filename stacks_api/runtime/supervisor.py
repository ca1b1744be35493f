"""How ``stacks-api serve`` keeps its processes running: each child is restarted
when it dies (with a back-off), and all are stopped together on TERM or INT."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .private_redis import answers

# Waits before restarting a child that died: the first for a death after a
# healthy run (HEALTHY_AFTER_S or longer), then one further for each death in a
# row soon after starting.
RESTART_BACKOFF_S = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
HEALTHY_AFTER_S = 30.0
# On TERM or INT, children get this long to finish (gunicorn's graceful timeout is
# 1 s; a worker hands back its game after the step under way), then are killed.
STOP_GRACE_S = 1.5


@dataclass
class Child:
    """One process ``serve`` keeps running."""

    name: str
    argv: list[str]
    ready: str | None = None  # a Redis's URL: the later children wait for it to answer
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    deaths_in_a_row: int = 0  # deaths that each came soon after the start before
    restart_at: float = 0.0

    def start(self) -> None:
        self.process = subprocess.Popen(self.argv)
        self.started = time.monotonic()

    def reap(self, now: float) -> None:
        """If the process died, log it and schedule its restart."""
        if self.process is None or (code := self.process.poll()) is None:
            return
        ran = now - self.started
        self.deaths_in_a_row = 1 if ran >= HEALTHY_AFTER_S else self.deaths_in_a_row + 1
        delay = RESTART_BACKOFF_S[min(self.deaths_in_a_row, len(RESTART_BACKOFF_S)) - 1]
        how = f"signal {-code}" if code < 0 else f"status {code}"
        message = (f"stacks-api serve: {self.name} (pid {self.process.pid}) exited with "
                   f"{how} after {ran:.1f} s; restarting it in {delay:g} s")  # fmt: skip
        print(message, file=sys.stderr, flush=True)
        self.process, self.restart_at = None, now + delay


def supervise(children: list[Child]) -> int:
    """Start every child and restart any that dies (with a back-off), until TERM or
    INT; then stop them all within ``STOP_GRACE_S`` (killing what is left)."""
    # A plain flag: a signal handler that took a lock could deadlock with the main
    # thread holding it (a threading.Event did, once in a while).
    stopping: list[int] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda number, _: stopping.append(number))
    for child in children:
        child.start()
        if child.ready is not None:
            _wait_for(child, stopping)
    while not stopping:
        now = time.monotonic()
        for child in children:
            child.reap(now)
            if child.process is None and now >= child.restart_at and not stopping:
                child.start()
        time.sleep(0.1)
    running = [c.process for c in children if c.process is not None]
    for process in running:
        if process.poll() is None:
            process.terminate()
    deadline = time.monotonic() + STOP_GRACE_S
    for process in running:
        try:
            process.wait(timeout=max(0.05, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return 0


def _wait_for(child: Child, stopping: list[int]) -> None:
    """Until ``child``'s Redis answers (it may be reading a long file first), it
    exits, or the server is stopped."""
    assert child.ready is not None and child.process is not None
    while not stopping and child.process.poll() is None:
        if answers(child.ready):
            return
        time.sleep(0.1)


# Where every process of a server counts its metrics (``stacks_api.runtime.metrics``).
METRICS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"


def prepare_metrics_directory(path: Path) -> None:
    """An empty directory for a new server's processes to count in (an earlier run's
    files would be added to this one's figures). Called before any process imports
    the metrics, which open their files in it at once."""
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()


# ``serve`` hands its children over in this variable and becomes
# ``python -m stacks_api.runtime.supervisor``: a fresh process of about 12 MB,
# not one holding all the libraries the command line loaded.
CHILDREN_VARIABLE = "STACKS_SUPERVISED"


def become_supervisor(children: list[Child]) -> None:
    """Replace this process with a small one that supervises ``children``."""
    os.environ[CHILDREN_VARIABLE] = json.dumps([[c.name, c.argv, c.ready] for c in children])
    os.execv(sys.executable, [sys.executable, "-m", __name__])


if __name__ == "__main__":
    handed = json.loads(os.environ.pop(CHILDREN_VARIABLE))
    sys.exit(supervise([Child(name, argv, ready) for name, argv, ready in handed]))
