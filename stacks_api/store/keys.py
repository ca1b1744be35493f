"""Every Redis key the server uses is built here, and only here.

Per-game keys share one hash tag, ``{<game id>}``, so a game's state, events and
idempotency keys live in one Redis Cluster slot and one MULTI can touch them all.
The lobby indexes are global keys, updated after the game's own transaction.
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

    def deadlines(self) -> str:
        """A sorted set of ``<game id>:<version>`` scored by when a deadline falls."""
        return f"{self.prefix}:deadlines"

    def channel(self, game_id: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:channel"

    def every_channel(self) -> str:
        """The pattern that matches every game's channel (one subscription per process)."""
        return f"{self.prefix}:{{*}}:channel"

    def game_of_channel(self, channel: str) -> str:
        """The game id inside a channel name built by ``channel``."""
        return channel[len(self.prefix) + 2 : -len("}:channel")]
