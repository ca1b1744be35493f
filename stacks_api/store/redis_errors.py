"""What a Redis failure means to the server: unreachable, or refusing writes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from redis.exceptions import (
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    RedisError,
    ResponseError,
)

from . import StoreDegraded, StoreUnavailable

# Everything a Redis or a Redis Cluster that cannot serve raises. redis-py's cluster
# errors (no node reachable, a slot not covered) are not RedisErrors.
FAILURES = (RedisError, RedisClusterException, OSError)


def _refuses_writes(err: RedisError) -> bool:
    """Out of memory, a read-only replica, or a failed snapshot that stops writes."""
    if isinstance(err, OutOfMemoryError | ReadOnlyError):
        return True
    return isinstance(err, ResponseError) and str(err).split(" ")[0] in ("MISCONF", "READONLY")


@contextmanager
def reachable() -> Iterator[None]:
    """Turn any Redis failure into StoreUnavailable (a 503, never a 500), and a refused
    write into StoreDegraded. Also a decorator: ``@reachable()``."""
    try:
        yield
    except RedisError as err:
        if _refuses_writes(err):
            raise StoreDegraded(type(err).__name__) from err
        raise StoreUnavailable(type(err).__name__) from err
    except (RedisClusterException, OSError) as err:
        raise StoreUnavailable(type(err).__name__) from err
