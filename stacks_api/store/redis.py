"""The production store: Redis, shared by any number of stateless API workers.

Every change is one compare-and-set: WATCH the game's state key, decide, then
MULTI/EXEC the new state, its events, its TTLs, its work queue entry and its
lobby entry together; a concurrent write aborts the EXEC and the decision is
made again on the fresh state.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from redis.backoff import NoBackoff
from redis.exceptions import WatchError
from redis.retry import Retry

from . import (
    IDEMPOTENCY_TTL_S,
    STREAM_REPORTS_FRESH_S,
    TTL_SECONDS,
    Change,
    Event,
    Record,
    StoreDegraded,
    due_at,
)
from .broadcast import Broadcaster, Subscription
from .keys import Keys
from .redis_errors import reachable
from .redis_work import RedisWorkQueue

T = TypeVar("T")
# Health says degraded once Redis (without eviction) is this full: game writes are
# far larger than the health check's, and fail first.
NEARLY_FULL = 0.98


class RedisStore:
    """Games in Redis under ``Keys(prefix)``; see ``stacks_api.store`` for the TTL policy."""

    kind = "redis"

    def __init__(
        self, url: str, variants: tuple[str, ...], prefix: str = "stacks", timeout_s: float = 2.0
    ) -> None:
        self.keys = Keys(prefix)
        self.variants = variants
        # Short timeouts and a single quick retry: a dead Redis answers 503 in seconds.
        self.client: redis.Redis = redis.Redis.from_url(
            url,
            socket_timeout=timeout_s,
            socket_connect_timeout=timeout_s,
            retry=Retry(NoBackoff(), 1),
            health_check_interval=30,
        )
        self.broadcaster = Broadcaster(self.client, self.keys)
        self.work = RedisWorkQueue(self.client, self.keys, variants)

    def ping(self) -> None:
        with reachable():
            self.client.set(self.keys.health(), "ok", ex=60)
            memory: dict[str, Any] = self.client.info("memory")
        limit = int(memory.get("maxmemory") or 0)
        full = memory.get("maxmemory_policy") == "noeviction" and limit > 0
        if full and int(memory.get("used_memory") or 0) >= NEARLY_FULL * limit:
            raise StoreDegraded("Redis is out of memory")

    def create(self, record: Record, events: list[Event]) -> None:
        with reachable(), self.client.pipeline(transaction=True) as pipe:
            self._queue_write(pipe, record, events, None)
            pipe.execute()

    def load(self, game_id: str) -> Record | None:
        with reachable():
            raw = self.client.get(self.keys.state(game_id))
        return None if raw is None else _decode(raw)

    def update(self, game_id: str, decide: Callable[[Record], tuple[Change, T]]) -> T:
        key = self.keys.state(game_id)
        with reachable(), self.client.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(key)  # type: ignore[no-untyped-call]
                    raw = pipe.get(key)
                    if raw is None:
                        raise KeyError(game_id)
                    record = _decode(raw)
                    old_status = record["status"]
                    change, result = decide(record)
                    pipe.multi()
                    if change.record is not None:
                        self._queue_write(pipe, change.record, change.events, old_status)
                    if change.remember is not None:
                        idem, response = change.remember
                        pipe.set(
                            self.keys.idempotency(game_id, idem),
                            json.dumps(response),
                            ex=IDEMPOTENCY_TTL_S,
                        )
                    pipe.execute()
                except WatchError:
                    continue  # someone else wrote the game first: decide again
                return result

    def events_after(self, game_id: str, version: int) -> list[Event]:
        with reachable():
            stored: list[Any] = self.client.lrange(self.keys.events(game_id), 0, -1)
        events = [_decode(raw) for raw in stored]
        return [e for e in events if e["version"] > version]

    def feed(self, game_id: str, after: int) -> RedisFeed:
        return RedisFeed(self, game_id, after)

    def recall(self, game_id: str, key: str) -> Record | None:
        with reachable():
            raw = self.client.get(self.keys.idempotency(game_id, key))
        return None if raw is None else _decode(raw)

    def list_games(
        self, status: str, variant: str | None, offset: int, limit: int
    ) -> tuple[list[Record], int]:
        variants = self.variants if variant is None else (variant,)
        lobbies = [self.keys.lobby(status, v) for v in variants]
        expired_before = time.time() - TTL_SECONDS[status]
        with reachable(), self.client.pipeline(transaction=False) as pipe:
            for lobby in lobbies:
                # Entries are scored by their game's last change: older ones have
                # expired with their game.
                pipe.zremrangebyscore(lobby, "-inf", expired_before)
                pipe.zrevrange(lobby, 0, offset + limit - 1, withscores=True)
                pipe.zcard(lobby)
            answers: list[Any] = pipe.execute()
        ranked = [pair for found in answers[1::3] for pair in found]
        total = sum(answers[2::3])
        ranked.sort(key=lambda pair: (pair[1], pair[0]), reverse=True)
        ids = [raw.decode() for raw, _ in ranked[offset : offset + limit]]
        with reachable():
            raws: list[Any] = self.client.mget([self.keys.state(g) for g in ids]) if ids else []
        records = [None if raw is None else _decode(raw) for raw in raws]
        # Entries whose game expired (or, written by an older release, moved on)
        # are dropped here.
        found = [r for r in records if r is not None and r["status"] == status]
        stale = [g for g, r in zip(ids, records, strict=True) if r is None or r["status"] != status]
        if stale:
            with reachable(), self.client.pipeline(transaction=False) as pipe:
                for lobby in lobbies:
                    pipe.zrem(lobby, *stale)
                pipe.execute()
        return found, max(total - len(stale), len(found))

    def count_streams(self, process: str, open_here: int, now: float) -> int:
        key = self.keys.streams()
        with reachable(), self.client.pipeline(transaction=False) as pipe:
            pipe.hset(key, process, f"{open_here}|{now}")
            pipe.hgetall(key)
            pipe.expire(key, int(STREAM_REPORTS_FRESH_S * 6))
            _, reports, _ = pipe.execute()
        total, gone = 0, []
        for name, report in reports.items():
            count, _, at = report.decode().partition("|")
            if float(at) >= now - STREAM_REPORTS_FRESH_S:
                total += int(count)
            else:
                gone.append(name)
        if gone:
            with reachable():
                self.client.hdel(key, *gone)
        return total

    def _queue_write(
        self, pipe: Any, record: Record, events: list[Event], old_status: str | None
    ) -> None:
        """Queue one whole write of a game in its MULTI: state, events, TTLs, the live
        event message, the game's work queue entry and its lobby entry."""
        ttl = TTL_SECONDS[record["status"]]
        game_id = record["id"]
        pipe.set(self.keys.state(game_id), json.dumps(record), ex=ttl)
        encoded = [json.dumps(e) for e in events]
        if encoded:
            pipe.rpush(self.keys.events(game_id), *encoded)
        pipe.expire(self.keys.events(game_id), ttl)
        if encoded:  # the events themselves, so a listener need not read them back
            pipe.publish(self.keys.channel(game_id), f"[{','.join(encoded)}]")
        self.work.queue_due(pipe, game_id, due_at(record))
        self._queue_index(pipe, record, old_status)

    def _queue_index(self, pipe: Any, record: Record, old_status: str | None) -> None:
        """Keep the game's lobby entry scored by its last change, under its status;
        the lobby key itself expires when no game has changed for a whole TTL."""
        lobby = self.keys.lobby(record["status"], record["variant"])
        if old_status not in (None, record["status"]):
            pipe.zrem(self.keys.lobby(old_status, record["variant"]), record["id"])
        changed = float(record.get("updated_at") or record["created_at"])
        pipe.zadd(lobby, {record["id"]: changed})
        pipe.expire(lobby, TTL_SECONDS[record["status"]])


class RedisFeed:
    """A game's events from the process's shared subscription; the list in Redis is
    the source of truth.

    It subscribes before reading the backlog, so an event written in between is
    never missed (one seen twice is dropped by its version). It remembers how far
    into the game's event list it has read: published batches extend it directly,
    and only a gap (a lost message) or a quiet spell makes it read Redis again,
    from where it stopped.
    """

    RECHECK_S = 10.0

    def __init__(self, store: RedisStore, game_id: str, after: int) -> None:
        self._store, self._key = store, store.keys.events(game_id)
        self._subscription: Subscription = store.broadcaster.subscribe(game_id)
        self._index, self._last = 0, after
        self._pending = self._read_new()
        self._checked = time.monotonic()

    def next_batch(self, timeout: float) -> list[Event]:
        if self._pending:
            pending, self._pending = self._pending, []
            return pending
        batch: list[Event] = []
        for published in self._subscription.take(timeout):
            fresh = [e for e in published if e["version"] > self._last]
            if not fresh:
                continue  # already read from the list
            if fresh[0]["version"] != self._last + 1:
                batch += self._read_new()  # a message was lost: read what is missing
                continue
            batch += fresh
            self._index += len(fresh)
            self._last = fresh[-1]["version"]
        now = time.monotonic()
        if batch:
            self._checked = now
        elif now - self._checked > self.RECHECK_S:
            self._checked = now
            batch = self._read_new()  # a quiet spell: make sure no message was lost
        return batch

    def _read_new(self) -> list[Event]:
        with reachable():
            stored: list[Any] = self._store.client.lrange(self._key, self._index, -1)
        self._index += len(stored)
        events = [e for e in map(_decode, stored) if e["version"] > self._last]
        if events:
            self._last = events[-1]["version"]
        return events

    def close(self) -> None:
        self._subscription.close()


def _decode(raw: bytes | str) -> Any:
    return json.loads(raw)
