"""Challenges on Redis (or a cluster): every key in one slot, so each change is one
atomic script.

Keys (``Keys.challenges``): ``all`` (hash: id -> the challenge's JSON),
``player:<id>`` (set of the challenges a player sent or received) and ``ends``
(sorted set by when each expires: forgotten ``KEEP_CLOSED_S`` after that).
"""

from __future__ import annotations

import json

from ..model.challenges import Answer, Challenge
from .keys import Keys
from .memory_seeks import KEEP_CLOSED_S
from .redis_connect import Connection
from .redis_errors import reachable

# KEYS: all, ends, the challenger's set, the challenged's set. ARGV: the JSON, its
# id, its challenger, its challenged, now, expires at, forget before, most pending.
# The forgotten leave the players' sets when a player's challenges are next read.
# Times travel as text: a Lua number handed to Redis is rounded to 14 digits.
_ADD = """
local old = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[7])
for _, id in ipairs(old) do redis.call('HDEL', KEYS[1], id) end
if #old > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[7]) end
local live = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  local raw = redis.call('HGET', KEYS[1], id)
  if raw then
    local c = cjson.decode(raw)
    if c['from'] == ARGV[3] and c.status == 'pending' and c.expires_at > tonumber(ARGV[5]) then
      if c['to'] == ARGV[4] then return 'pending' end
      live = live + 1
    end
  end
end
if live >= tonumber(ARGV[8]) then return 'limit' end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[2])
return false
"""

# KEYS: all. ARGV: id, status, the fields to set (JSON).
_SETTLE = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
local c = cjson.decode(raw)
if c.status ~= 'pending' then return raw end
for k, v in pairs(cjson.decode(ARGV[3])) do c[k] = v end
c.status = ARGV[2]
local now = cjson.encode(c)
redis.call('HSET', KEYS[1], ARGV[1], now)
return now
"""


class RedisChallenges:
    def __init__(self, connection: Connection, keys: Keys) -> None:
        self.client = connection.client
        self.keys = keys
        self._add = connection.script(_ADD)
        self._settle = connection.script(_SETTLE)

    @reachable()
    def add(self, challenge: Challenge, most: int) -> str | None:
        k = self.keys.challenges
        keys = [k("all"), k("ends"), k(f"player:{challenge.challenger}"),
                k(f"player:{challenge.challenged}")]  # fmt: skip
        args: list[str | int] = [
            json.dumps(challenge.to_json()), challenge.id, challenge.challenger,
            challenge.challenged, repr(challenge.created_at), repr(challenge.expires_at),
            repr(challenge.created_at - KEEP_CLOSED_S), most,
        ]  # fmt: skip
        refused = self._add(keys=keys, args=args)
        return None if refused is None else refused.decode()

    @reachable()
    def get(self, challenge_id: str) -> Challenge | None:
        raw = self.client.hget(self.keys.challenges("all"), challenge_id)
        return None if raw is None else _challenge(raw)

    @reachable()
    def of(self, player_id: str) -> list[Challenge]:
        theirs = self.keys.challenges(f"player:{player_id}")
        ids = sorted(self.client.smembers(theirs))
        found = self.client.hmget(self.keys.challenges("all"), ids) if ids else []
        gone = [i for i, raw in zip(ids, found, strict=True) if raw is None]
        if gone:
            self.client.srem(theirs, *gone)
        mine = [_challenge(raw) for raw in found if raw is not None]
        return sorted(mine, key=lambda c: (c.created_at, c.id), reverse=True)

    @reachable()
    def settle(self, challenge_id: str, status: str, answer: Answer) -> Challenge | None:
        raw = self._settle(keys=[self.keys.challenges("all")],
                           args=[challenge_id, status, json.dumps(answer.to_json())])  # fmt: skip
        return None if raw is None else _challenge(raw)


def _challenge(raw: bytes | str) -> Challenge:
    return Challenge.from_json(json.loads(raw))
