"""The service's interface to the parts around it: everything the API, the workers
and the bots may use of the store comes through here, under the service's names.

The store implements ``GameStore`` and ``WorkQueue`` (``stacks_api.store``); the
runners implement ``Jobs`` (``stacks_api.workers.runner``).
"""

from __future__ import annotations

from typing import Protocol

from ..store import EventFeed, StoreDegraded, StoreUnavailable, WorkQueue

# The service's own names for the store's troubles: the API answers 503 to both.
Unavailable = StoreUnavailable
Degraded = StoreDegraded

__all__ = ["Degraded", "EventFeed", "Jobs", "Unavailable", "WorkQueue"]


class Jobs(Protocol):
    """What the service tells the background workers after a write."""

    def wake(self) -> None:
        """A game is due now (or a deadline moved nearer): look at the queue soon."""

    def stop(self) -> None:
        """Stop any workers this process runs (the ones in other processes go on)."""
