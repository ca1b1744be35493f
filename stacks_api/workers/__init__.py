"""Background work: bots' moves and expired block windows, never inside a request.

A committed change that leaves a bot to move, or sets a deadline, hands the
game to a job queue (``Jobs``). A worker runs ``GameService.advance`` on it:
it loads a snapshot, lets the bot decide outside any lock or transaction, and
commits with a version check. With Redis the queue is RQ and the workers are
separate processes (``stacks-api worker``); with the embedded store it is
``LocalWorkers``, threads inside the web process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

R = TypeVar("R")


class Jobs(Protocol):
    """Where the service hands games that need background work."""

    def wake(self, game_id: str, version: int) -> None:
        """The game at ``version`` has a bot to move: advance it soon."""

    def wake_at(self, game_id: str, version: int, at: float) -> None:
        """Advance the game at ``at`` (epoch seconds): a deadline falls then."""


def gevent_active() -> bool:
    """Whether this process runs under gevent's monkey-patching (gunicorn's gevent worker)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("threading"))


def offload(work: Callable[..., R], *args: object) -> R:
    """Run CPU-bound ``work`` where it cannot stall the event loop.

    Under gevent, on a real OS thread from gevent's pool (the greenlets serving
    requests and streams keep running meanwhile); elsewhere, right here.
    """
    if gevent_active():
        import gevent

        result: R = gevent.get_hub().threadpool.apply(work, args)
        return result
    return work(*args)
