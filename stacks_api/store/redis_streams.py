"""Who is watching, on Redis: each web process's count of open event streams, and
each game's spectators (one sorted set per game, in its slot, by when each
spectator's stream runs out unless refreshed)."""

from __future__ import annotations

import time
from typing import Any

from . import STREAM_REPORTS_FRESH_S, TTL_SECONDS
from .keys import Keys
from .redis_errors import reachable


class RedisStreams:
    client: Any
    keys: Keys

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

    def watch(self, game_id: str, watcher: str, until: float | None) -> None:
        key = self.keys.watchers(game_id)
        with reachable(), self.client.pipeline(transaction=False) as pipe:
            if until is None:
                pipe.zrem(key, watcher)
            else:
                pipe.zadd(key, {watcher: until})
                pipe.expire(key, int(TTL_SECONDS["active"]))
            pipe.execute()

    def spectators(self, game_ids: list[str]) -> dict[str, int]:
        now = time.time()
        with reachable(), self.client.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.zcount(self.keys.watchers(game_id), now, "+inf")
            counts = pipe.execute()
        return dict(zip(game_ids, counts, strict=True))
