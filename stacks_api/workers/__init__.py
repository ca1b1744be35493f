"""Background work: bots' moves and expired block windows, never inside a request.

Every write of a game records when it next needs a worker, in the store's work
queue, in the same atomic step. Runners (``runner.py``) claim due games with a
lease and run ``GameService.advance`` on them: it loads a snapshot, lets the bot
decide outside any lock or transaction, and commits with a version check. With
Redis the runners are separate processes (``stacks-api worker``, ``worker.py``);
with the embedded store they are threads inside the web process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

R = TypeVar("R")


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
