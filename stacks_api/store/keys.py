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

    def idempotency(self, game_id: str, key: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:idem:{key}"

    def lobby(self, status: str, variant: str) -> str:
        return f"{self.prefix}:lobby:{status}:{variant}"

    def channel(self, game_id: str) -> str:
        return f"{self.prefix}:{{{game_id}}}:channel"
