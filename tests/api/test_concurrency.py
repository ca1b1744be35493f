"""Two app instances on one Redis, many threads, one game: each action applies once."""

import random
import threading
from collections import Counter

from stacks_api.app import create_app
from stacks_api.config import TestConfig
from stacks_api.engine import load_game
from stacks_api.engine.sequence.setup import DECK

from .helpers import act, create, join, view


def test_concurrent_actions_across_instances_apply_exactly_once(redis_url, prefix):
    apps = [create_app(TestConfig, REDIS_URL=redis_url, STORE_PREFIX=prefix) for _ in range(2)]
    clients = [a.test_client() for a in apps]
    game = create(clients[0], variant="sequence", players=2, seed=8)["game"]
    tokens = [
        join(clients[0], game["id"], "A")["token"],
        join(clients[1], game["id"], "B")["token"],
    ]
    store = apps[0].extensions["stacks_api.games"].store
    outcomes = Counter()
    lock = threading.Lock()

    def worker(n):
        rng = random.Random(n)
        client = clients[n % 2]
        for _ in range(15):
            current = load_game(store.load(game["id"])["game"])
            if current.result is not None:
                return
            seat = current.to_move[0]
            legal = current.legal_actions(seat)
            # Half the threads race on the very same action, the rest pick their own.
            action = legal[0] if n % 2 else rng.choice(legal)
            response = act(client, game["id"], tokens[seat], action)
            with lock:
                outcomes[response.status_code] += 1

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    final = view(clients[1], game["id"])
    events = clients[0].get(f"/api/v1/games/{game['id']}/events").json["events"]
    versions = [e["version"] for e in events]
    assert sorted(set(versions)) == list(range(1, final["version"] + 1)), "gapless versions"
    assert versions == sorted(versions)
    # Versions 1-4 are: created, joined, joined, started; every later one is one action.
    actions = [e for e in events if e["type"] in ("play", "exchange", "pass")]
    applied = final["version"] - 4
    assert [e["version"] for e in actions] == list(range(5, final["version"] + 1))
    assert outcomes[200] == applied and outcomes[200] > 10
    assert set(outcomes) <= {200, 409}, outcomes
    record = store.load(game["id"])["game"]["position"]
    cards = Counter(c for zone in [*record["hands"], *record["discards"], record["draw_pile"]]
                    for c in zone)  # fmt: skip
    assert cards == Counter(DECK)
