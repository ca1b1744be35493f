"""The Redis store's outbox of ended games to archive, and each player's index of
live games (``RedisStore`` inherits these)."""

from __future__ import annotations

from typing import Any

from ..model.record import ENDED
from . import PLAYER_GAMES_KEPT, TTL_SECONDS
from .keys import Keys
from .redis_errors import reachable

# The outbox of ended games waiting to be archived, one sorted set per shard,
# scored by when an entry may next be claimed (0: at once).
# CLAIM_ARCHIVING: KEYS: the outbox. ARGV: now, the end of the claim's lease, how
# many. Claims up to that many entries due by now; each stays in the outbox, due
# again when the lease ends (a worker that dies lets another take them).
CLAIM_ARCHIVING = """
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return ids
"""
# ARCHIVED: KEYS: the outbox, the game's state, its events. ARGV: the game id, the
# TTL ended games keep. The game is in the archive: out of the outbox, and from
# now on it expires like any ended game.
ARCHIVED = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('EXPIRE', KEYS[2], ARGV[2])
  redis.call('EXPIRE', KEYS[3], ARGV[2])
end
return 1
"""
# REQUEUE: KEYS: the outbox, the game's state, its events. ARGV: the game id. An
# ended game the archive lacks and whose entry went missing goes back in (kept
# without a TTL again); an entry still there keeps its claim.
REQUEUE = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], 'NX', 0, ARGV[1])
redis.call('PERSIST', KEYS[2])
redis.call('PERSIST', KEYS[3])
return 1
"""
# FORGET: KEYS: the outbox, the game's state, its events. ARGV: the game id. An
# ended game the archive has (out of the outbox) is dropped from the live store
# at once: its reads come from the archive from then on.
FORGET = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
local raw = redis.call('GET', KEYS[2])
if not raw then return 1 end
local status = cjson.decode(raw)['status']
if status ~= 'finished' and status ~= 'cancelled' then return 0 end
redis.call('DEL', KEYS[2], KEYS[3])
return 1
"""


class RedisOutbox:
    """The outbox's operations (``GameStore``), over the store's client and scripts."""

    keys: Keys
    client: Any
    indexes: tuple[str, ...]
    _claim_archiving: Any
    _archived: Any
    _requeue: Any
    _forget: Any

    def index_player_game(self, player_id: str, game_id: str, at: float) -> None:
        key = self.keys.player_games(player_id)
        with reachable(), self.client.pipeline(transaction=True) as pipe:
            pipe.zadd(key, {game_id: at})
            pipe.zremrangebyrank(key, 0, -PLAYER_GAMES_KEPT - 1)
            pipe.expire(key, TTL_SECONDS["active"])
            pipe.execute()

    def player_games(self, player_id: str) -> list[str]:
        with reachable():
            found: list[bytes] = self.client.zrevrange(self.keys.player_games(player_id), 0, -1)
        return [raw.decode() for raw in found]

    def claim_archiving(self, now: float, lease_s: float, limit: int) -> list[str]:
        claimed: list[str] = []
        with reachable():
            for shard in self.keys.all_shards():
                if len(claimed) >= limit:
                    break
                found: list[bytes] = self._claim_archiving(
                    keys=[self.keys.outbox(shard)], args=[now, now + lease_s, limit - len(claimed)]
                )
                claimed += [raw.decode() for raw in found]
        return claimed

    def archived(self, game_id: str) -> None:
        keys, shard = self.keys, self.keys.shard(game_id)
        with reachable():
            self._archived(
                keys=[keys.outbox(shard), keys.state(game_id), keys.events(game_id)],
                args=[game_id, TTL_SECONDS["finished"]],
            )

    def requeue_archiving(self, game_id: str) -> bool:
        keys, shard = self.keys, self.keys.shard(game_id)
        with reachable():
            done = self._requeue(
                keys=[keys.outbox(shard), keys.state(game_id), keys.events(game_id)],
                args=[game_id],
            )
        return bool(done)

    def forget(self, game_id: str) -> bool:
        keys, shard = self.keys, self.keys.shard(game_id)
        with reachable():
            done = self._forget(
                keys=[keys.outbox(shard), keys.state(game_id), keys.events(game_id)],
                args=[game_id],
            )
        return bool(done)

    def archiving_backlog(self) -> int:
        with reachable(), self.client.pipeline(transaction=False) as pipe:
            for shard in self.keys.all_shards():
                pipe.zcard(self.keys.outbox(shard))
            counts: list[int] = pipe.execute()
        return sum(counts)

    def ended_games(self, since: float, limit: int) -> list[str]:
        found: list[str] = []
        with reachable(), self.client.pipeline(transaction=False) as pipe:
            for status in sorted(ENDED):
                for variant in self.indexes:
                    for shard in self.keys.all_shards():
                        lobby = self.keys.lobby(status, variant, shard)
                        pipe.zrangebyscore(lobby, since, "+inf", start=0, num=limit)
            for ids in pipe.execute():
                found += [raw.decode() for raw in ids]
        return found
