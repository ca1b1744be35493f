"""Every Redis key the server uses is built here, and only here.

Per-game keys share one hash tag, ``{<game id>}``, so a game's state, events and
idempotency keys live in one Redis Cluster slot and one script can touch them all.
The lobby indexes and the work queue are global keys, written in the game's own
transaction (a cluster backend will shard them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keys:
    prefix: str = "stacks"

    def state(self, game_id: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:state"

    def events(self, game_id: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:events"

    def idempotency(self, game_id: str, slot: str) -> str:
        """``slot`` is built by the service from a seat and a digest, never raw client text."""
        return f"{self.prefix}:{{{game_id}}}:idem:{slot}"

    def health(self) -> str:
        """Written by every health check: proves the store still accepts writes."""
        return f"{self.prefix}:health"

    def lobby(self, status: str, variant: str) -> str:
        return f"{self.prefix}:lobby:{status}:{variant}"

    def due(self) -> str:
        """The work queue: game ids scored by when they next need a worker."""
        return f"{self.prefix}:due"

    def leases(self) -> str:
        """Game id to ``<owner>|<expiry>`` for the games runners hold."""
        return f"{self.prefix}:leases"

    def doorbell(self) -> str:
        """A short list idle runners block on."""
        return f"{self.prefix}:doorbell"

    def repair(self) -> str:
        """Held by the runner that repairs the work queue now."""
        return f"{self.prefix}:repair"

    def repair_cursor(self) -> str:
        return f"{self.prefix}:repair:cursor"

    def streams(self) -> str:
        """A hash of each web process's count of open event streams."""
        return f"{self.prefix}:streams"

    def channel(self, game_id: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:channel"

    def every_channel(self) -> str:
        """The pattern that matches every game's channel (one subscription per process)."""
        return f"{self.prefix}:{{*}}:channel"

    def game_of_channel(self, channel: str) -> str:
        """The game id inside a channel name built by ``channel``."""
        return channel[len(self.prefix) + 2 : -len("}:channel")]
