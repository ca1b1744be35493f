"""How many rated games each pair of accounts began lately, so that a pair plays at
most a few a day for rating (``service.rated_pairs``). A pair's games are kept by
game id with when each began, forgotten once out of the window: in Redis (a
sorted set a pair, every pair in one slot, so a game's pairs are claimed in one
atomic script) or in this process's memory."""

from __future__ import annotations

import threading
from typing import Protocol

from .keys import Keys
from .redis_connect import Connection
from .redis_errors import reachable

# KEYS: the pairs' sets. ARGV: the game, now, the window's start, most, seconds kept.
# Claimed for every pair, or for none; a game claimed before is claimed still.
_CLAIM = """
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. ARGV[3])
  if not redis.call('ZSCORE', key, ARGV[1]) and redis.call('ZCARD', key) >= tonumber(ARGV[4]) then
    return 0
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'NX', ARGV[2], ARGV[1])
  redis.call('EXPIRE', key, ARGV[5])
end
return 1
"""


class RatedPairs(Protocol):
    """The rated games each pair of accounts began lately (``store.rated_pairs``)."""

    def claim(self, game_id: str, pairs: list[str], now: float, most: int, window_s: float) -> bool:
        """Count ``game_id`` for each of ``pairs`` if none of them began ``most`` other
        rated games in the last ``window_s``; whether it did (for all, or none). A game
        counted before is counted still (a decision made again claims it again)."""

    def count(self, pair: str, now: float, window_s: float) -> int:
        """The rated games ``pair`` began in the last ``window_s``."""

    def release(self, game_id: str, pairs: list[str]) -> None:
        """``game_id`` counts no more for ``pairs`` (it rated nobody)."""


class MemoryRatedPairs:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._games: dict[str, dict[str, float]] = {}  # pair -> game -> when it began

    def claim(self, game_id: str, pairs: list[str], now: float, most: int, window_s: float) -> bool:
        with self._lock:
            for pair in pairs:
                games = self._kept(pair, now - window_s)
                if game_id not in games and len(games) >= most:
                    return False
            for pair in pairs:
                self._games.setdefault(pair, {}).setdefault(game_id, now)
            return True

    def count(self, pair: str, now: float, window_s: float) -> int:
        with self._lock:
            return len(self._kept(pair, now - window_s))

    def release(self, game_id: str, pairs: list[str]) -> None:
        with self._lock:
            for pair in pairs:
                self._games.get(pair, {}).pop(game_id, None)

    def _kept(self, pair: str, since: float) -> dict[str, float]:
        games = {g: at for g, at in self._games.get(pair, {}).items() if at >= since}
        self._games[pair] = games
        return games


class RedisRatedPairs:
    def __init__(self, connection: Connection, keys: Keys) -> None:
        self.client = connection.client
        self.keys = keys
        self._claim = connection.script(_CLAIM)

    @reachable()
    def claim(self, game_id: str, pairs: list[str], now: float, most: int, window_s: float) -> bool:
        keys = [self.keys.rated_pair(pair) for pair in pairs]
        args: list[str | int] = [game_id, repr(now), repr(now - window_s), most, int(window_s) + 60]
        return bool(self._claim(keys=keys, args=args))

    @reachable()
    def release(self, game_id: str, pairs: list[str]) -> None:
        with self.client.pipeline(transaction=False) as pipe:
            for pair in pairs:
                pipe.zrem(self.keys.rated_pair(pair), game_id)
            pipe.execute()

    @reachable()
    def count(self, pair: str, now: float, window_s: float) -> int:
        return int(self.client.zcount(self.keys.rated_pair(pair), repr(now - window_s), "+inf"))
