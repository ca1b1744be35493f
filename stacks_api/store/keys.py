"""Every Redis key the server uses is built here, and only here.

A script touches only keys of one Redis Cluster slot, and a write touches a
game's state, events and idempotency keys, its work queue entry, its lobby
entry and its live channel in one script. So games are grouped in **shards**,
each under one hash tag, and every key a write touches carries its game's
shard tag: the shard's work queue and lobby indexes live beside its games.

- One Redis (``shards=0``): a single shard whose keys are the ones earlier
  releases wrote (``<prefix>:{<game id>}:state``, ``<prefix>:due``, ...), so a
  running server can be upgraded in place.
- Redis Cluster (``shards=N``, at least 1): ``<prefix>:{sNN-…}:...``. Each
  shard's tag is chosen so the N shards sit at even steps over the 16,384
  slots, and so spread evenly over masters that split the slots evenly. A
  game's shard is fixed by its id; N must never change for a deployment's data
  (games would be looked for in the wrong shard).

Keys that no write of a game touches (health, doorbell, repair lock, stream
counts) are plain keys in whatever slot they hash to.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from functools import cache

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

ONE_REDIS = ""  # the name of the only shard on a single Redis


@cache
def shard_tags(count: int) -> tuple[str, ...]:
    """``count`` hash tags whose slots sit at even steps over the slot space."""
    step = REDIS_CLUSTER_HASH_SLOTS / count
    tags = []
    for n in range(count):
        low, high = int(n * step), int((n + 1) * step)
        candidates = (f"s{n:02d}-{i}" for i in range(1_000_000))
        tags.append(next(t for t in candidates if low <= key_slot(t.encode()) < high))
    return tuple(tags)


@dataclass(frozen=True)
class Keys:
    prefix: str = "stacks"
    shards: int = 0  # 0: one Redis; else the cluster's number of shards
    _tags: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.shards < 0:
            raise ValueError("the number of shards is 0 (one Redis) or more")
        tags = (ONE_REDIS,) if self.shards == 0 else shard_tags(self.shards)
        object.__setattr__(self, "_tags", tags)

    # Shards

    def all_shards(self) -> tuple[str, ...]:
        return self._tags

    def shard(self, game_id: str) -> str:
        """The shard a game lives in, fixed by its id."""
        if self.shards == 0:
            return ONE_REDIS
        return self._tags[zlib.crc32(game_id.encode()) % self.shards]

    def _in(self, shard: str) -> str:
        """The prefix of a shard-wide key."""
        return self.prefix if shard == ONE_REDIS else f"{self.prefix}:{{{shard}}}"

    def _game(self, game_id: str) -> str:
        """The prefix of a game's own keys."""
        if self.shards == 0:
            return f"{self.prefix}:{{{game_id}}}"
        return f"{self.prefix}:{{{self.shard(game_id)}}}:{game_id}"

    # A game's own keys

    def presence(self, game_id: str) -> str:
        """Hash: seat -> when its person was last seen (epoch seconds)."""
        return f"{self._game(game_id)}:presence"

    def state(self, game_id: str) -> str:
        return f"{self._game(game_id)}:state"

    def events(self, game_id: str) -> str:
        return f"{self._game(game_id)}:events"

    def idempotency(self, game_id: str, slot: str) -> str:
        """``slot`` is built by the service from a seat and a digest, never raw client text."""
        return f"{self._game(game_id)}:idem:{slot}"

    def channel(self, game_id: str) -> str:
        """Where the game's events are published as they are written."""
        return f"{self._game(game_id)}:channel"

    # Each shard's indexes: written by the same script as the shard's games

    def lobby(self, status: str, variant: str, shard: str = ONE_REDIS) -> str:
        return f"{self._in(shard)}:lobby:{status}:{variant}"

    def due(self, shard: str = ONE_REDIS) -> str:
        """The work queue: game ids scored by when they next need a worker."""
        return f"{self._in(shard)}:due"

    def outbox(self, shard: str = ONE_REDIS) -> str:
        """Ended games waiting to be archived, scored by when they may next be claimed."""
        return f"{self._in(shard)}:outbox"

    def leases(self, shard: str = ONE_REDIS) -> str:
        """Game id to ``<owner>|<expiry>`` for the games runners hold."""
        return f"{self._in(shard)}:leases"

    # Server-wide keys

    def player_games(self, player_id: str) -> str:
        """A player's games that may be live, scored by when the player joined."""
        return f"{self.prefix}:player:{{{player_id}}}:games"

    def pairing(self, part: str) -> str:
        """Quick pairing's keys (``seeks``, ``players``, ``pools``, ``closed``,
        ``pool:<pool>``): all in one slot, so each of its scripts is atomic."""
        return f"{self.prefix}:{{pairing}}:{part}"

    def challenges(self, part: str) -> str:
        """Challenges' keys (``all``, ``ends``, ``player:<id>``): one slot, so each
        script is atomic."""
        return f"{self.prefix}:{{challenges}}:{part}"

    def rated_pair(self, pair: str) -> str:
        """The rated games two accounts began lately (``store.rated_pairs``): every
        pair in one slot, so one script claims a game's pairs at once."""
        return f"{self.prefix}:{{rated-pairs}}:{pair}"

    def job(self, kind: str, key: str) -> str:
        """A worker's job of ``kind`` (hint, analysis), its result or its "asked" mark:
        ``key`` begins with the game's id (a hint's is ``<game>:<seat>:<version>``)."""
        return f"{self.prefix}:{kind}:{{{key.split(':', 1)[0]}}}:{key}"

    def job_queue(self, kind: str) -> str:
        return f"{self.prefix}:{kind}:queue"

    def health(self) -> str:
        """Written by every health check: proves the store still accepts writes."""
        return f"{self.prefix}:health"

    def doorbell(self) -> str:
        """A short list idle runners block on."""
        return f"{self.prefix}:doorbell"

    def repair(self) -> str:
        """Held by the runner that repairs the work queue now."""
        return f"{self.prefix}:repair"

    def repair_cursor(self) -> str:
        return f"{self.prefix}:repair:cursors"

    def watchers(self, game_id: str) -> str:
        """A sorted set of the game's spectators' streams, by when each runs out."""
        return f"{self._game(game_id)}:watchers"

    def revocations(self) -> str:
        """How many credentials were revoked (``store.revocations``)."""
        return f"{self.prefix}:revocations"

    def streams(self) -> str:
        """A hash of each web process's count of open event streams."""
        return f"{self.prefix}:streams"
