"""Quick pairing's seeks on Redis (or a cluster): every key in one slot, so each
change is one atomic script.

Keys (``Keys.pairing``): ``seeks`` (hash: id -> the seek's JSON), ``players``
(hash: player id -> their latest seek), ``pool:<pool>`` (sorted set of the
pool's waiting seeks by when they began), ``pools`` (set of pool names) and
``closed`` (sorted set of closed seeks by when they closed: forgotten after
``KEEP_CLOSED_S``).
"""

from __future__ import annotations

import json

from redis.utils import str_if_bytes

from ..model.seeks import Seek
from .keys import Keys
from .memory_seeks import KEEP_CLOSED_S
from .redis_connect import Connection
from .redis_errors import reachable

# Lua shared by the scripts that close seeks. KEYS: seeks, players, pool, closed.
# Times travel as text: a Lua number handed to Redis is rounded to 14 digits.
_CLOSE_ONE = """
local function close_one(seek, now)
  seek.closed_at = tonumber(now)
  redis.call('HSET', KEYS[1], seek.id, cjson.encode(seek))
  redis.call('ZREM', KEYS[3], seek.id)
  redis.call('ZADD', KEYS[4], now, seek.id)
end
local function forget_old(before)
  local old = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', before)
  for _, id in ipairs(old) do redis.call('HDEL', KEYS[1], id) end
  if #old > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', before) end
end
"""

# KEYS: seeks, players, pool, pools. ARGV: player id, seek id, JSON, began, pool.
_ADD = """
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held then
  local raw = redis.call('HGET', KEYS[1], held)
  if raw and cjson.decode(raw).status == 'waiting' then return raw end
end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[5])
return false
"""

# KEYS: seeks, players, pool, closed. ARGV: game id, now, forget before, seek ids...
_PAIR = (
    _CLOSE_ONE
    + """
local seeks, group = {}, {}
for i = 4, #ARGV do
  group[#group + 1] = ARGV[i]
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if not raw then return 0 end
  local seek = cjson.decode(raw)
  if seek.status ~= 'waiting' then return 0 end
  seeks[#seeks + 1] = seek
end
for seat, seek in ipairs(seeks) do
  seek.status = 'paired'
  seek.game_id = ARGV[1]
  seek.seat = seat - 1
  seek.group = group
  close_one(seek, ARGV[2])
end
forget_old(ARGV[3])
return 1
"""
)

# KEYS: seeks, players, pool, closed. ARGV: seek id, status, now, forget before.
_CLOSE = (
    _CLOSE_ONE
    + """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local seek = cjson.decode(raw)
if seek.status ~= 'waiting' then return raw end
seek.status = ARGV[2]
close_one(seek, ARGV[3])
forget_old(ARGV[4])
return cjson.encode(seek)
"""
)


class RedisSeeks:
    def __init__(self, connection: Connection, keys: Keys) -> None:
        self.client = connection.client
        self.keys = keys
        self._add = connection.script(_ADD)
        self._pair = connection.script(_PAIR)
        self._close = connection.script(_CLOSE)

    def _four(self, pool: str) -> list[str]:
        k = self.keys.pairing
        return [k("seeks"), k("players"), k(f"pool:{pool}"), k("closed")]

    @reachable()
    def add(self, seek: Seek) -> Seek | None:
        k = self.keys.pairing
        keys = [k("seeks"), k("players"), k(f"pool:{seek.pool}"), k("pools")]
        args = [seek.player_id, seek.id, json.dumps(seek.to_json()), repr(seek.since), seek.pool]
        held = self._add(keys=keys, args=args)
        return None if held is None else _seek(held)

    @reachable()
    def get(self, seek_id: str) -> Seek | None:
        raw = self.client.hget(self.keys.pairing("seeks"), seek_id)
        return None if raw is None else _seek(raw)

    @reachable()
    def latest(self, player_id: str) -> Seek | None:
        seek_id = self.client.hget(self.keys.pairing("players"), player_id)
        return None if seek_id is None else self.get(str_if_bytes(seek_id))

    @reachable()
    def waiting(self, pool: str) -> list[Seek]:
        ids = self.client.zrange(self.keys.pairing(f"pool:{pool}"), 0, -1)
        if not ids:
            return []
        found = self.client.hmget(self.keys.pairing("seeks"), ids)
        seeks = [_seek(raw) for raw in found if raw is not None]
        return [s for s in seeks if s.waiting]

    @reachable()
    def pools(self) -> list[str]:
        return sorted(str_if_bytes(p) for p in self.client.smembers(self.keys.pairing("pools")))

    @reachable()
    def pair(self, seek_ids: list[str], game_id: str, now: float) -> bool:
        first = self.get(seek_ids[0])
        if first is None:
            return False
        args = [game_id, repr(now), repr(now - KEEP_CLOSED_S), *seek_ids]
        return bool(self._pair(keys=self._four(first.pool), args=args))

    @reachable()
    def close(self, seek_id: str, status: str, now: float) -> Seek | None:
        seek = self.get(seek_id)
        if seek is None:
            return None
        args = [seek_id, status, repr(now), repr(now - KEEP_CLOSED_S)]
        raw = self._close(keys=self._four(seek.pool), args=args)
        return None if raw is None else _seek(raw)


def _seek(raw: bytes | str) -> Seek:
    return Seek.from_json(json.loads(raw))
