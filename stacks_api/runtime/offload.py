"""Running CPU-bound work (a bot's thinking) where it cannot stall a gevent event loop."""

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
