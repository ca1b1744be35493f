"""The production store: one Redis or a Redis Cluster, shared by any number of
stateless API workers.

Every change is one compare-and-set in two round trips: GET the game's state,
decide, then one script (``WRITE_GAME``) checks that the state is still the one
read (by its SHA-1) and writes the new state, its events, its TTLs, its live
event message, its work queue entry and its lobby entry together (every one of
those keys is in the game's shard, so in one cluster slot). If someone else
wrote the game in between, the script writes nothing and the decision is made
again on the fresh state. On a cluster, the script's round trip also carries a
``WAIT`` for the game's replica.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any, TypeVar

from redis.exceptions import NoScriptError

from ..model import jsontext
from ..model.events import Event
from ..model.record import JSON, GameRecord
from . import (
    IDEMPOTENCY_TTL_S,
    TTL_SECONDS,
    UNLISTED,
    Change,
    StoreDegraded,
    lobby_index,
    queue_score,
)
from .broadcast import Broadcaster
from .budgets import Budgets
from .keys import Keys
from .packing import pack_events, pack_record, unpack_events, unpack_record
from .presence import RedisPresence
from .rated_pairs import RedisRatedPairs
from .redis_challenges import RedisChallenges
from .redis_connect import connect
from .redis_errors import FAILURES, reachable
from .redis_feed import RedisFeed
from .redis_jobs import RedisJobs
from .redis_outbox import ARCHIVED, CLAIM_ARCHIVING, FORGET, REQUEUE, RedisOutbox
from .redis_seeks import RedisSeeks
from .redis_streams import RedisStreams
from .redis_work import RedisWorkQueue
from .revocations import RedisRevocations

T = TypeVar("T")
# Health says degraded once Redis (without eviction) is this full: game writes are
# far larger than the health check's, and fail first.
NEARLY_FULL = 0.98
# The elements (writes) a first read takes from the end of a game's event list; each
# further read takes 4 times more.
TAIL_FIRST = 16
# How long a cluster write waits for its replicas before it answers 503.
REPLICA_WAIT_MS = 1000

# KEYS: state, events, due, lobby, previous lobby (or the lobby again), remembered
# response (or the state again), outbox, all in the game's shard. ARGV: the SHA-1
# of the state the change was decided on ("" for a new game: there must be none),
# the new state ("": keep it), its TTL, the live event channel, the due time ("":
# none), the game id, the lobby score, the response to remember ("": none) and how
# long, the publish command (SPUBLISH on a cluster: the message stays in the
# shard), "1" when the change ends the game and puts it in the outbox (else ""),
# then, if the change has events, them packed (one element of the event list,
# ``packing.py``) and their JSON array to publish. A game in the outbox keeps its state and
# events without a TTL until it is archived (``ARCHIVED``). Returns 1 when
# written, 0 when the state was not the one read.
WRITE_GAME = """
local current = redis.call('GET', KEYS[1])
if ARGV[1] == '' then
  if current then return 0 end
elseif not current or redis.sha1hex(current) ~= ARGV[1] then
  return 0
end
if ARGV[8] ~= '' then
  redis.call('SET', KEYS[6], ARGV[8], 'EX', ARGV[9])
end
if ARGV[2] == '' then return 1 end
local ttl = tonumber(ARGV[3])
redis.call('SET', KEYS[1], ARGV[2], 'EX', ttl)
if #ARGV > 11 then
  redis.call('RPUSH', KEYS[2], ARGV[12])
  redis.call(ARGV[10], ARGV[4], ARGV[13])
end
redis.call('EXPIRE', KEYS[2], ttl)
if ARGV[5] == '' then
  redis.call('ZREM', KEYS[3], ARGV[6])
else
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6])
end
if KEYS[5] ~= KEYS[4] then redis.call('ZREM', KEYS[5], ARGV[6]) end
redis.call('ZADD', KEYS[4], ARGV[7], ARGV[6])
redis.call('EXPIRE', KEYS[4], ttl)
if ARGV[11] == '1' then redis.call('ZADD', KEYS[7], 0, ARGV[6]) end
if redis.call('ZSCORE', KEYS[7], ARGV[6]) then
  redis.call('PERSIST', KEYS[1])
  redis.call('PERSIST', KEYS[2])
end
return 1
"""


class RedisStore(RedisOutbox, RedisStreams):
    """Games in Redis or a Redis Cluster under ``Keys(prefix)``; see
    ``stacks_api.store`` for the TTL policy and ``keys.py`` for the shards.

    On a cluster each write waits (``WAIT``) until ``replica_acks`` replicas have
    it before it counts as done: an answer the client received is never lost to
    a failover. A write no replica took in time answers 503 (it may have been
    applied: the client retries with its Idempotency-Key).
    """

    kind = "redis"  # a cluster too: the API's health answer names the kind of store

    def __init__(
        self,
        url: str,
        variants: tuple[str, ...],
        prefix: str = "stacks",
        timeout_s: float = 2.0,
        shards: int = 16,
        replica_acks: int = 1,
    ) -> None:
        self.connection = connect(url, timeout_s)
        self.client = self.connection.client
        cluster = self.connection.cluster
        if cluster and shards < 1:
            raise ValueError("a Redis Cluster needs STACKS_STORE_SHARDS of 1 or more")
        self.keys = Keys(prefix, shards if cluster else 0)
        self.variants = variants
        self.replica_acks = replica_acks if cluster else 0
        self._publish = "SPUBLISH" if cluster else "PUBLISH"
        self.broadcaster = Broadcaster(self.connection.subscriber, sharded=cluster)
        # Private tables have indexes of their own: repairs and sweeps read them too.
        self.indexes = (*variants, *(f"{v}{UNLISTED}" for v in variants))
        self.work = RedisWorkQueue(self.connection, self.keys, self.indexes)
        self.seeks = RedisSeeks(self.connection, self.keys)
        self.challenges = RedisChallenges(self.connection, self.keys)
        self.budgets = Budgets(url, prefix)
        self.presence = RedisPresence(self.connection, self.keys)
        self.revocations = RedisRevocations(self.connection, self.keys.revocations())
        self.rated_pairs = RedisRatedPairs(self.connection, self.keys)
        self.hints = RedisJobs(self.connection, self.keys, "hint")
        self.analyses = RedisJobs(self.connection, self.keys, "analysis")
        self._write_game = self.connection.script(WRITE_GAME)
        self._claim_archiving = self.connection.script(CLAIM_ARCHIVING)
        self._archived = self.connection.script(ARCHIVED)
        self._requeue = self.connection.script(REQUEUE)
        self._forget = self.connection.script(FORGET)

    def ping(self) -> None:
        with reachable():
            self.client.set(self.keys.health(), "ok", ex=60)
            masters = self.connection.masters()
            memories: list[dict[str, Any]] = [m.info("memory") for m in masters]
            replication = [m.info("replication") for m in masters] if self.replica_acks else []
        for replicas in replication:
            # Writes wait for this many replicas: with fewer, none can be acknowledged.
            if int(replicas.get("connected_slaves") or 0) < self.replica_acks:
                raise StoreDegraded(f"a master has fewer than the {self.replica_acks} "
                                    "replica(s) every write waits for")  # fmt: skip
        for memory in memories:
            limit = int(memory.get("maxmemory") or 0)
            full = memory.get("maxmemory_policy") == "noeviction" and limit > 0
            if full and int(memory.get("used_memory") or 0) >= NEARLY_FULL * limit:
                raise StoreDegraded("Redis is out of memory")

    def create(self, record: GameRecord, events: list[Event]) -> bool:
        with reachable():
            return self._write(None, record, Change(record, events))

    def load(self, game_id: str) -> GameRecord | None:
        snapshot = self.snapshot(game_id)
        return None if snapshot is None else self.parse(snapshot)

    def snapshot(self, game_id: str) -> bytes | None:
        with reachable():
            raw: bytes | None = self.client.get(self.keys.state(game_id))
        return raw

    def parse(self, snapshot: bytes) -> GameRecord:
        return GameRecord.from_json(unpack_record(snapshot))

    def update(self, game_id: str, decide: Callable[[GameRecord], tuple[Change, T]]) -> T:
        with reachable():
            while True:
                raw: bytes | None = self.client.get(self.keys.state(game_id))
                if raw is None:
                    raise KeyError(game_id)
                record = self.parse(raw)
                change, result = decide(record)
                if change.record is None and change.remember is None:
                    return result
                read = hashlib.sha1(raw).hexdigest()
                if self._write(read, record, change):
                    return result
                # Someone else wrote the game first: decide again on the fresh state.

    def events_after(self, game_id: str, version: int, newest: int | None = None) -> list[Event]:
        """Read from the end of the list back: each element is one write's events, in
        the order of their versions, so the reading stops at the first element that
        starts at or before ``version + 1`` (a caller close to the present, as most
        are, reads one short slice, however long the game). With ``newest`` the first
        slice is the last ``newest - version`` writes: each made a version at least."""
        key, end = self.keys.events(game_id), -1
        size = TAIL_FIRST if newest is None else max(1, newest - version)
        found: list[Event] = []
        while True:
            with reachable():
                stored: list[Any] = self.client.lrange(key, end - size + 1, end)
            events = [e for element in stored for e in unpack_events(element)]
            if found:  # a write appended meanwhile shifts the slice: drop what was read
                events = [e for e in events if e["version"] < found[0]["version"]]
            found[:0] = events
            if len(stored) < size or (found and found[0]["version"] <= version + 1):
                break
            end, size = end - size, size * 4
        return [e for e in found if e["version"] > version]

    def feed(self, game_id: str, after: int) -> RedisFeed:
        # Subscribed before the backlog is read: nothing written in between is missed.
        subscription = self.broadcaster.subscribe(self.keys.channel(game_id))
        return RedisFeed(self.client, self.keys.events(game_id), subscription, after)

    def recall(self, game_id: str, key: str) -> JSON | None:
        with reachable():
            raw = self.client.get(self.keys.idempotency(game_id, key))
        return None if raw is None else _decode(raw)

    def list_games(
        self,
        status: str,
        variant: str | None,
        offset: int,
        limit: int,
        after: tuple[float, str] | None = None,
    ) -> tuple[list[GameRecord], int]:
        variants = self.variants if variant is None else (variant,)
        shards = self.keys.all_shards()
        lobbies = [self.keys.lobby(status, v, shard) for v in variants for shard in shards]
        expired_before = time.time() - TTL_SECONDS[status]
        with reachable(), self.client.pipeline(transaction=False) as pipe:
            for lobby in lobbies:
                # Entries are scored by their game's last change: older ones have
                # expired with their game.
                pipe.zremrangebyscore(lobby, "-inf", expired_before)
                if after is None:
                    pipe.zrevrange(lobby, 0, offset + limit - 1, withscores=True)
                else:  # from the page's start on: games of the same time may tie
                    pipe.zrevrangebyscore(lobby, after[0], "-inf", start=0, num=limit + 8,
                                          withscores=True)  # fmt: skip
                pipe.zcard(lobby)
            answers: list[Any] = pipe.execute()
        ranked = [pair for found in answers[1::3] for pair in found]
        total = sum(answers[2::3])
        if after is not None:
            ranked = [(raw, at) for raw, at in ranked if (at, raw.decode()) < after]
            offset = 0
        ranked.sort(key=lambda pair: (pair[1], pair[0]), reverse=True)
        ids = [raw.decode() for raw, _ in ranked[offset : offset + limit]]
        with reachable(), self.client.pipeline(transaction=False) as pipe:
            for game_id in ids:  # one GET each: the games may sit in different slots
                pipe.get(self.keys.state(game_id))
            raws: list[Any] = pipe.execute()
        records = [None if raw is None else self.parse(raw) for raw in raws]
        # Entries whose game expired (or, written by an older release, moved on)
        # are dropped here.
        found = [r for r in records if r is not None and r.status == status]
        stale = [g for g, r in zip(ids, records, strict=True) if r is None or r.status != status]
        if stale:
            with reachable(), self.client.pipeline(transaction=False) as pipe:
                for game_id in stale:
                    shard = self.keys.shard(game_id)
                    for v in variants:
                        pipe.zrem(self.keys.lobby(status, v, shard), game_id)
                pipe.execute()
        return found, max(total - len(stale), len(found))

    def count_live(self) -> dict[str, int]:
        expired_before = time.time() - TTL_SECONDS["active"]
        counted = [(v.removesuffix(UNLISTED), self.keys.lobby("active", v, shard))
                   for v in self.indexes for shard in self.keys.all_shards()]  # fmt: skip
        with reachable(), self.client.pipeline(transaction=False) as pipe:
            for _, lobby in counted:
                pipe.zcount(lobby, f"({expired_before}", "+inf")
            answers: list[int] = pipe.execute()
        live = dict.fromkeys(self.variants, 0)
        for (variant, _), count in zip(counted, answers, strict=True):
            live[variant] += count
        return live

    def _write(self, read: str | None, current: GameRecord, change: Change) -> bool:
        """Run ``WRITE_GAME`` for ``change``, decided on ``current``, the state whose SHA-1
        is ``read`` (None: a new game); False if the game was written by someone else
        meanwhile."""
        record = change.record or current
        game_id, keys = record.id, self.keys
        shard = keys.shard(game_id)
        lobby = keys.lobby(record.status, lobby_index(record), shard)
        moved = read is not None and current.status != record.status
        previous = keys.lobby(current.status, lobby_index(record), shard) if moved else lobby
        remembered = keys.state(game_id)
        response = b""
        if change.remember is not None:
            slot, answer = change.remember
            remembered, response = keys.idempotency(game_id, slot), jsontext.dumps(answer)
        due = queue_score(record)
        return self._run_write(
            keys=[
                keys.state(game_id),
                keys.events(game_id),
                keys.due(shard),
                lobby,
                previous,
                remembered,
                keys.outbox(shard),
            ],
            args=[
                read or "",
                "" if change.record is None else pack_record(record.to_json()),
                TTL_SECONDS[record.status],
                keys.channel(game_id),
                "" if due is None else repr(due),
                game_id,
                repr(float(record.updated_at)),
                response,
                IDEMPOTENCY_TTL_S,
                self._publish,
                "1" if change.archive else "",
                *(
                    (pack_events(change.events), jsontext.dumps(change.events))
                    if change.events
                    else ()
                ),
            ],
        )

    def _run_write(self, keys: list[str], args: list[Any]) -> bool:
        """Run ``WRITE_GAME``; on a cluster, on the master of the game's slot, followed
        on the same connection by ``WAIT`` for its replicas."""
        if not self.replica_acks:
            return bool(self._write_game(keys=keys, args=args))
        _, node = self.connection.node(keys[0])
        try:
            try:
                written, replicas = self._write_and_wait(node, keys, args)
            except NoScriptError:  # a node new to the script (a promoted replica has it)
                node.script_load(WRITE_GAME)
                written, replicas = self._write_and_wait(node, keys, args)
        except FAILURES:
            self.connection.relearn()  # a failover moves slots: ask where they are now
            raise
        if written and replicas < self.replica_acks:
            raise StoreDegraded("the write reached no replica in time")
        return bool(written)

    def _write_and_wait(self, node: Any, keys: list[str], args: list[Any]) -> tuple[int, int]:
        """The script and ``WAIT`` in one round trip on one connection (a registered
        script in a pipeline would first ask whether the node has it: one more)."""
        with node.pipeline(transaction=False) as pipe:
            pipe.evalsha(self._write_game.sha, len(keys), *keys, *args)
            pipe.execute_command("WAIT", self.replica_acks, REPLICA_WAIT_MS)
            written, replicas = pipe.execute()
        return int(written), int(replicas)


def _events_args(events: list[Event]) -> tuple[bytes, bytes]:
    """A write's events as stored (packed) and as published (JSON)."""
    return pack_events(events), jsontext.dumps(events)


def _decode(raw: bytes | str) -> Any:
    return jsontext.loads(raw)
