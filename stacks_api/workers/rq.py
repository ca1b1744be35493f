"""Background work on Redis: RQ jobs, run by ``stacks-api worker`` processes.

RQ is the established job queue on Redis for Python: jobs survive a worker's
crash, any number of worker processes on any hosts share the queue, and a
failed job is retried. A job only names the game; the worker reads its current
state, so a job that runs late, twice, or after another worker's move does no
harm: the service commits with a version check.

Deadlines (block windows now, turn clocks later) are kept in one sorted set
scored by their time, and every worker polls it five times a second, claiming
a due entry with ZREM (only one worker's ZREM succeeds). RQ's own scheduler
was tried first: it polls once a second from one elected worker, and with rq
3.0 it left deadlines unserved in two of three test runs (closed only by the
stalled-game fallback, 16 s later).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from typing import TYPE_CHECKING

import redis
from rq import Queue, Retry, SimpleWorker
from rq.exceptions import DuplicateJobError

from ..store.keys import Keys

if TYPE_CHECKING:
    from ..service import GameService

log = logging.getLogger(__name__)
JOB_TIMEOUT_S = 120  # a job advances a game for at most the bot budget, far below this
DEADLINE_POLL_S = 0.2
# A job that failed (Redis away, a worker killed) is tried again.
RETRY = Retry(max=5, interval=[1, 2, 5, 10, 30])

# The service a worker process's jobs use; set by run_worker before it works.
_service: GameService | None = None


def queue_name(prefix: str) -> str:
    return f"{prefix}-bots"


def advance(game_id: str) -> None:
    """The job: advance one game as far as its bots and deadlines allow."""
    assert _service is not None, "jobs run only in a process started by run_worker"
    _service.advance(game_id)


class RQJobs:
    """Hands games to the RQ queue (one queued job per game and version) and
    deadlines to the sorted set the workers poll."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.client = client
        self.deadlines = Keys(prefix).deadlines()
        self.queue = Queue(queue_name(prefix), connection=client)

    def wake(self, game_id: str, version: int) -> None:
        with contextlib.suppress(DuplicateJobError):  # that game and version is already queued
            self.queue.enqueue(
                advance, game_id,
                job_id=f"advance-{game_id}-{version}", unique=True,
                result_ttl=0, failure_ttl=3600, job_timeout=JOB_TIMEOUT_S, retry=RETRY,
            )  # fmt: skip

    def wake_at(self, game_id: str, version: int, at: float) -> None:
        self.client.zadd(self.deadlines, {f"{game_id}:{version}": at})

    def queue_due(self, now: float) -> int:
        """Queue every game whose deadline has come; how many this worker claimed."""
        claimed = 0
        due: list[bytes] = self.client.zrangebyscore(  # type: ignore[assignment]
            self.deadlines, "-inf", now, start=0, num=100
        )
        for raw in due:
            if self.client.zrem(self.deadlines, raw):  # only one worker's ZREM succeeds
                game_id, _, version = raw.decode().rpartition(":")
                self.wake(game_id, int(version))
                claimed += 1
        return claimed


def poll_deadlines(jobs: RQJobs, stop: threading.Event) -> None:
    """Queue due deadlines until ``stop`` is set; survive a Redis outage."""
    while not stop.wait(DEADLINE_POLL_S):
        try:
            jobs.queue_due(time.time())
        except redis.RedisError as err:
            log.warning("deadline poll failed: %s", type(err).__name__)


def run_worker(service: GameService, url: str, prefix: str) -> None:
    """Work the bot queue in this process until TERM (finishing the job under way)."""
    global _service
    _service = service
    # Its own connection, without the store's short socket timeout: the worker
    # blocks on the queue for long stretches.
    client = redis.Redis.from_url(url)
    stop = threading.Event()
    poller = threading.Thread(
        target=poll_deadlines, args=(RQJobs(client, prefix), stop), daemon=True
    )
    poller.start()
    # SimpleWorker runs jobs in this process: a fork per bot move would cost more
    # than most moves take to decide.
    worker = SimpleWorker([Queue(queue_name(prefix), connection=client)], connection=client)
    try:
        worker.work(logging_level="WARNING")
    finally:
        stop.set()
