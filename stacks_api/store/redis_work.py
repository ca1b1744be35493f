"""The work queue on Redis: which games need a worker, and who holds each one.

Keys (all built in ``keys.py``; the first two once per shard, beside its games):
- ``due``: a sorted set, game id scored by when it needs a worker. It is
  written by the same script as the game's state, from the record's
  ``due_at``, so it can never miss a committed change.
- ``leases``: a hash, game id to ``<owner>|<expiry>``. A lease that has run
  out is as good as none: any runner may claim the game.
- ``<prefix>:doorbell``: a short list that runners block on, so a game due now
  is picked up at once rather than at the next poll (a lost ring only costs
  latency, never a game).
- ``<prefix>:repair`` and ``<prefix>:repair:cursors``: who repairs next, and
  where in the active games the last repair stopped.

Each operation is one Lua script on one shard, so a claim, a renewal or a
release is atomic against every other runner and every write of the game. With
several shards, a claim first reads each shard's earliest entry (one pipeline)
and tries the shards holding due games, most overdue first.
"""

from __future__ import annotations

from typing import Any

from redis.utils import str_if_bytes

from . import BOTS_ALONE_LATER
from .keys import Keys
from .redis_connect import Connection
from .redis_errors import reachable

# Lua that sets a game's queue entry from its stored record; 1 when it added an
# entry that was missing. KEYS: due, state. ARGV[1]: the game id.
# (As ``queue_score``: a game of bots alone is queued BOTS_ALONE_LATER later.)
_SET_DUE_FROM_RECORD = f"""
local function set_due(due_key, state_key, game)
  local raw = redis.call('GET', state_key)
  if raw then
    local record = cjson.decode(raw)
    local queued = record.status == 'active' or record.status == 'waiting'
    if queued and type(record.due_at) == 'number' then
      local score = record.due_at
      local alone = true
      for _, seat in ipairs(record.seats) do
        local s = seat.state
        if s == 'human' or s == 'away' or s == 'reserved' then alone = false end
      end
      if alone then score = score + {BOTS_ALONE_LATER!r} end
      -- As text in full: a Lua number handed to Redis is rounded to 14 digits.
      return redis.call('ZADD', due_key, string.format('%.17g', score), game)
    end
  end
  redis.call('ZREM', due_key, game)
  return 0
end
"""

# KEYS: due, leases. ARGV: now, owner, lease seconds, how many due games to look at,
# then the band of bots alone: its lowest and highest score due by now ("none":
# people's games only). A person's game first, then bots alone. The bounds come
# as text from Python: a Lua number passed to Redis is rounded to 14 digits.
_CLAIM = """
local now = tonumber(ARGV[1])
local bands = {{'-inf', ARGV[1]}}
if ARGV[5] ~= 'none' then table.insert(bands, {ARGV[5], ARGV[6]}) end
for _, band in ipairs(bands) do
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], band[1], band[2], 'LIMIT', 0, tonumber(ARGV[4]))
  for _, game in ipairs(due) do
    local held = redis.call('HGET', KEYS[2], game)
    if not held or tonumber(string.match(held, '|([^|]*)$')) <= now then
      redis.call('HSET', KEYS[2], game, ARGV[2] .. '|' .. (now + tonumber(ARGV[3])))
      return game
    end
  end
end
return false
"""


_OWNED = """
local function owned(held, owner)
  return held and string.sub(held, 1, #owner + 1) == owner .. '|'
end
"""

# KEYS: leases. ARGV: game, owner, new expiry.
_EXTEND = (
    _OWNED
    + """
if not owned(redis.call('HGET', KEYS[1], ARGV[1]), ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|' .. ARGV[3])
return 1
"""
)

# KEYS: leases, due, state. ARGV: game, owner.
_RELEASE = (
    _OWNED
    + _SET_DUE_FROM_RECORD
    + """
if not owned(redis.call('HGET', KEYS[1], ARGV[1]), ARGV[2]) then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
set_due(KEYS[2], KEYS[3], ARGV[1])
return 1
"""
)

# KEYS: due, state. ARGV: game.
_REPAIR_ONE = _SET_DUE_FROM_RECORD + "return set_due(KEYS[1], KEYS[2], ARGV[1])"

# KEYS: leases. ARGV: expired before. Leases of games that ended while their worker
# was dead would otherwise stay for ever.
_DROP_EXPIRED = """
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do
  if tonumber(string.match(held[i + 1], '|([^|]*)$')) < tonumber(ARGV[1]) then
    redis.call('HDEL', KEYS[1], held[i])
  end
end
return 0
"""

CLAIM_LOOKAHEAD = 256  # due games a claim looks at: more than there are runners at once
REPAIR_BATCH = 500  # active games one repair reads
DOORBELL_LENGTH = 16  # rings kept for idle runners; more would only wake them in vain


def _due(score: float) -> float:
    """The due time a queue score stands for."""
    return score - BOTS_ALONE_LATER if score >= BOTS_ALONE_LATER else score


class RedisWorkQueue:
    """``WorkQueue`` on Redis (see ``stacks_api.store.WorkQueue``)."""

    def __init__(self, connection: Connection, keys: Keys, variants: tuple[str, ...]) -> None:
        self.client, self.keys, self.variants = connection.client, keys, variants
        self._connection = connection
        self._claim = connection.script(_CLAIM)
        self._extend = connection.script(_EXTEND)
        self._release = connection.script(_RELEASE)
        self._repair_one = connection.script(_REPAIR_ONE)
        self._drop_expired = connection.script(_DROP_EXPIRED)

    @reachable()
    def claim(self, now: float, owner: str, lease_s: float) -> str | None:
        shards = self.keys.all_shards()
        if len(shards) > 1:  # only the shards with a game due, most overdue first
            due = [(score, shard) for shard, score in self._firsts(now) if score is not None]
            shards = tuple(shard for _, shard in sorted(due))
        alone = [repr(BOTS_ALONE_LATER), repr(BOTS_ALONE_LATER + now)]
        # With several shards, every shard's people's games before any bots alone.
        rounds = [["none", ""], alone] if len(shards) > 1 else [alone]
        for bots in rounds:
            for shard in shards:
                keys = [self.keys.due(shard), self.keys.leases(shard)]
                args: list[str | float] = [repr(now), owner, lease_s, CLAIM_LOOKAHEAD, *bots]
                claimed = self._claim(keys=keys, args=args)
                if claimed is not None:
                    return str_if_bytes(claimed)
        return None

    def _firsts(self, now: float) -> list[tuple[str, float | None]]:
        """Each shard and the due time of its most overdue game due by ``now`` in
        either band (None: none is due). Scores are compared as stored: a due time
        worked back from a band's score may differ in its last digit."""
        shards = self.keys.all_shards()
        later = BOTS_ALONE_LATER
        with self.client.pipeline(transaction=False) as pipe:
            for shard in shards:
                pipe.zrangebyscore(self.keys.due(shard), "-inf", now, start=0, num=1,
                                   withscores=True)  # fmt: skip
                pipe.zrangebyscore(self.keys.due(shard), later, later + now, start=0, num=1,
                                   withscores=True)  # fmt: skip
            found: list[list[tuple[Any, float]]] = pipe.execute()
        firsts: list[tuple[str, float | None]] = []
        for n, shard in enumerate(shards):
            people, bots = found[2 * n], found[2 * n + 1]
            firsts.append((shard, people[0][1] if people else bots[0][1] - later if bots else None))
        return firsts

    @reachable()
    def people_waiting(self, now: float) -> bool:
        # Plain commands in two pipelines (a cluster pipelines no scripts): the due
        # people's games of every shard, then their leases. A hint, not a claim.
        shards = self.keys.all_shards()
        with self.client.pipeline(transaction=False) as pipe:
            for shard in shards:
                pipe.zrangebyscore(self.keys.due(shard), "-inf", now, start=0, num=CLAIM_LOOKAHEAD)
            due: list[list[bytes]] = pipe.execute()
        waiting = [(shard, games) for shard, games in zip(shards, due, strict=True) if games]
        if not waiting:
            return False
        with self.client.pipeline(transaction=False) as pipe:
            for shard, games in waiting:
                pipe.hmget(self.keys.leases(shard), games)
            leases: list[list[bytes | None]] = pipe.execute()
        return any(
            held is None or float(held.rsplit(b"|", 1)[1]) <= now
            for found in leases
            for held in found
        )

    @reachable()
    def extend(self, game_id: str, owner: str, lease_s: float, now: float) -> bool:
        args = [game_id, owner, repr(now + lease_s)]
        leases = self.keys.leases(self.keys.shard(game_id))
        return bool(self._extend(keys=[leases], args=args))

    @reachable()
    def release(self, game_id: str, owner: str) -> None:
        shard = self.keys.shard(game_id)
        keys = [self.keys.leases(shard), self.keys.due(shard), self.keys.state(game_id)]
        self._release(keys=keys, args=[game_id, owner])

    @reachable()
    def next_due(self) -> float | None:
        return min(self._earliest().values(), default=None)

    def _earliest(self) -> dict[str, float]:
        """Each shard's earliest entry (leased or not), for the shards that have one,
        as a due time (the band of bots alone taken off)."""
        shards = self.keys.all_shards()
        with self.client.pipeline(transaction=False) as pipe:
            for shard in shards:
                pipe.zrange(self.keys.due(shard), 0, 0, withscores=True)
            firsts: list[list[tuple[Any, float]]] = pipe.execute()
        return {
            shard: _due(first[0][1]) for shard, first in zip(shards, firsts, strict=True) if first
        }

    @reachable()
    def ring(self) -> None:
        with self.client.pipeline(transaction=False) as pipe:
            pipe.lpush(self.keys.doorbell(), 1)
            pipe.ltrim(self.keys.doorbell(), 0, DOORBELL_LENGTH - 1)
            pipe.execute()

    @reachable()
    def wait(self, timeout: float) -> None:
        self.client.blpop([self.keys.doorbell()], timeout=timeout)

    @reachable()
    def repair(self, now: float, every_s: float) -> int:
        """Rebuild the entries of the next active games of every shard from their
        records (``REPAIR_BATCH`` games a round, shared among the shards); at most
        one runner of the whole fleet does it every ``every_s``. Where each shard's
        last round stopped is kept in a hash, shard to offset."""
        if not self.client.set(self.keys.repair(), "1", nx=True, px=int(every_s * 1000)):
            return 0
        shards = self.keys.all_shards()
        batch = max(1, REPAIR_BATCH // len(shards))
        cursors = self.client.hgetall(self.keys.repair_cursor())
        restored = 0
        for shard in shards:
            start = int(cursors.get(shard.encode(), 0))
            found = [
                self.client.zrange(self.keys.lobby("active", v, shard), start, start + batch - 1)
                for v in self.variants
            ]
            # The shard's keys share one slot, so one node: one round trip for them all.
            _, node = self._connection.node(self.keys.due(shard))
            with node.pipeline(transaction=False) as pipe:
                for game_id in (str_if_bytes(raw) for games in found for raw in games):
                    keys = [self.keys.due(shard), self.keys.state(game_id)]
                    self._repair_one(keys=keys, args=[game_id], client=pipe)
                restored += sum(int(n) for n in pipe.execute())
            done = all(len(games) < batch for games in found)
            self.client.hset(self.keys.repair_cursor(), shard, 0 if done else start + batch)
            self._drop_expired(keys=[self.keys.leases(shard)], args=[repr(now - 60)])
        return restored
