"""Two app instances on one Redis, many threads, one game: each action applies once."""

import random
import threading
from collections import Counter

from stacks_api.app import create_app
from stacks_api.config import TestConfig
from stacks_api.engine import load_game
from stacks_api.engine.sequence.setup import DECK
from stacks_api.engine.stacks.cards import deck_for

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


def test_retried_and_racing_requests_apply_each_action_once(redis_url, prefix):
    apps = [create_app(TestConfig, REDIS_URL=redis_url, STORE_PREFIX=prefix) for _ in range(2)]
    clients = [a.test_client() for a in apps]
    game = create(clients[0], variant="stacks", players=2, seed=12)["game"]
    tokens = [
        join(clients[0], game["id"], "A")["token"],
        join(clients[1], game["id"], "B")["token"],
    ]
    store = apps[0].extensions["stacks_api.games"].store
    applied_keys: list[str] = []
    lock = threading.Lock()

    def worker(n):
        rng = random.Random(n)
        for attempt in range(12):
            current = load_game(store.load(game["id"])["game"])
            if current.result is not None:
                return
            seat = current.to_move[0]
            action = rng.choice(current.legal_actions(seat))
            key = f"w{n}-{attempt}"
            # The same request sent three times, to both instances: a phone retrying.
            answers = [
                act(clients[k % 2], game["id"], tokens[seat], action, **{"Idempotency-Key": key})
                for k in range(3)
            ]
            codes = {a.status_code for a in answers}
            if 200 in codes:
                assert codes == {200}, "a retry of an applied action must replay its answer"
                assert all(a.json == answers[0].json for a in answers)
                with lock:
                    applied_keys.append(key)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    events = clients[1].get(f"/api/v1/games/{game['id']}/events").json["events"]
    final = view(clients[0], game["id"])
    assert sorted({e["version"] for e in events}) == list(range(1, final["version"] + 1))
    moves = ("play", "discard", "pass", "answer")  # answer: Block or pass in a block window
    played = [e for e in events if e["version"] > 4 and e["type"] in moves]
    versions_with_a_move = {e["version"] for e in played}
    assert len(versions_with_a_move) == len(applied_keys) == final["version"] - 4
    position = store.load(game["id"])["game"]["position"]
    zones = [*position["piles"], *position["hands"], *position["discards"], position["set_aside"],
             position["special_discard"], position["draw_pile"]]  # fmt: skip
    assert Counter(c for zone in zones for c in zone) == Counter(deck_for(2))
