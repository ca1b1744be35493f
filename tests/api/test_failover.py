"""A Redis Cluster master dies mid-game: its replica takes over, games on its shard go
on, streams resume, and no action a client was told of is lost."""

import threading
import time

import pytest
import requests

from stacks_api.client import Client
from stacks_api.store.keys import Keys
from stacks_api.testing import RedisClusterServer, ServerProcess, parse_sse

SHARDS = 16  # the server's default


@pytest.fixture
def cluster():
    """A cluster of this test's own: the test changes who is master."""
    started = RedisClusterServer()
    started.start()
    yield started
    started.cleanup()


class Follower(threading.Thread):
    """An SSE client that reconnects with Last-Event-ID, as browsers do, until the
    game ends or it is stopped."""

    def __init__(self, url: str, game_id: str) -> None:
        super().__init__(daemon=True)
        self.url, self.game_id = url, game_id
        self.events: list[dict] = []
        self.reconnects = 0
        self.stopped = threading.Event()

    def run(self) -> None:
        last, url = 0, f"{self.url}/api/v1/games/{self.game_id}/events"
        while not self.stopped.is_set():
            headers = {"Accept": "text/event-stream", "Last-Event-ID": str(last)}
            try:
                with requests.get(url, headers=headers, stream=True, timeout=(5, 5)) as stream:
                    stream.encoding = "utf-8"
                    for seen, event in parse_sse(stream.iter_lines(decode_unicode=True)):
                        if event is not None:
                            self.events.append(event)
                            last = seen if seen is not None else last
            except requests.RequestException:
                pass
            self.reconnects += 1
            time.sleep(0.2)


def test_a_master_killed_mid_game_loses_no_acknowledged_action(cluster, prefix):
    server = ServerProcess({"REDIS_URL": cluster.url, "STACKS_STORE_PREFIX": prefix}, workers=2)
    try:
        api = Client(server.url, retries=10)
        game_id = api.create("sequence", 2, seed=11)["id"]
        tokens = [api.join(game_id, name).token for name in ("Ada", "Bo")]
        follower = Follower(server.url, game_id)
        follower.start()
        acknowledged: list[int] = []

        def play(actions: int) -> None:
            for _ in range(actions):
                view = api.view(game_id)
                token = tokens[view["to_move"][0]]
                mine = api.view(game_id, token)
                answer = api.act(game_id, token, mine["you"]["legal_actions"][0])
                acknowledged.append(answer["game"]["version"])

        play(6)
        keys = Keys(prefix, SHARDS)
        master = cluster.master_of(keys.state(game_id))
        # Bot games on every shard of that master: the runners must carry them on.
        bots = []
        while len(bots) < 3:
            bot_game = api.create(
                "sequence", 2, seats=[{"bot": "strong", "options": {"iterations": 60}}] * 2
            )["id"]
            if cluster.master_of(keys.state(bot_game)) == master:
                bots.append(bot_game)
        assert all(api.view(g)["status"] == "active" for g in bots)  # mid-game
        cluster.kill(master)  # SIGKILL: whatever it had not passed on is gone
        # The supervisor brings the dead node back; it rejoins as its replica's
        # replica. Meanwhile writes on the shard answer 503 and the client retries.
        back = threading.Timer(3.0, cluster.restart, args=[master])
        back.start()
        play(6)
        back.join()
        assert master not in cluster.masters()  # the replica took over

        stored = [e["version"] for e in api.events(game_id)]
        assert set(acknowledged) <= set(stored)
        assert stored == sorted(stored) and set(stored) == set(range(1, max(stored) + 1))
        assert max(acknowledged) == max(stored)

        deadline = time.monotonic() + 30
        while {e["version"] for e in follower.events} != set(stored):
            assert time.monotonic() < deadline, "the stream did not catch up"
            time.sleep(0.2)
        follower.stopped.set()
        seen = [(e["version"], e["type"]) for e in follower.events]
        assert seen == [(e["version"], e["type"]) for e in api.events(game_id)]  # once each
        assert follower.reconnects >= 1  # the stream on the dead master ended, and resumed

        for bot_game in bots:  # none stranded: each plays on to its end
            while api.view(bot_game)["status"] == "active":
                assert time.monotonic() < deadline + 60, f"bot game {bot_game} is stuck"
                time.sleep(0.5)
            assert api.view(bot_game)["status"] == "finished"
    finally:
        server.stop()


def test_health_says_degraded_when_a_cluster_has_fewer_replicas_than_writes_wait_for(make_app):
    from stacks_api.testing import RedisClusterServer

    bare = RedisClusterServer(masters=3, replicas=0)
    bare.start()
    try:
        waiting = make_app(REDIS_URL=bare.url, STORE_PREFIX="bare", STORE_REPLICA_ACKS=1)
        health = waiting.test_client().get("/api/v1/health")
        assert health.status_code == 503 and health.json["code"] == "degraded"
        answering = make_app(REDIS_URL=bare.url, STORE_PREFIX="bare", STORE_REPLICA_ACKS=0)
        assert answering.test_client().get("/api/v1/health").status_code == 200
    finally:
        bare.cleanup()
