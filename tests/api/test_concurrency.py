"""Two app instances on one Redis, many threads, one game: each action applies once."""

import random
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from stacks_api.app import create_app
from stacks_api.engine import load_game
from stacks_api.runtime.config import TestConfig
from stacks_api.variants.sequence.setup import DECK
from stacks_api.variants.stacks.cards import deck_for

from ..engine.helpers import cards_in_play
from .helpers import act, create, join, view


@dataclass
class SharedGame:
    """A two-human game reachable through two app instances sharing one Redis."""

    clients: list[Any]
    id: str
    tokens: list[str]
    store: Any

    def state(self):
        return load_game(self.store.load(self.id).game)


def shared_game(redis_url: str, prefix: str, variant: str, seed: int) -> SharedGame:
    apps = [create_app(TestConfig, REDIS_URL=redis_url, STORE_PREFIX=prefix) for _ in range(2)]
    clients = [a.test_client() for a in apps]
    game_id = create(clients[0], variant=variant, players=2, seed=seed)["game"]["id"]
    tokens = [join(clients[i], game_id, name)["token"] for i, name in enumerate("AB")]
    return SharedGame(clients, game_id, tokens, apps[0].extensions["stacks_api.games"].store)


def run_in_threads(worker: Callable[[int], None], count: int) -> None:
    """Run ``worker(n)`` for each n on its own thread; an assertion in any fails the test."""
    with ThreadPoolExecutor(count) as pool:
        for future in [pool.submit(worker, n) for n in range(count)]:
            future.result()


def test_concurrent_actions_across_instances_apply_exactly_once(redis_url, prefix):
    game = shared_game(redis_url, prefix, "sequence", seed=8)
    outcomes = Counter()
    lock = threading.Lock()

    def worker(n):
        rng = random.Random(n)
        for _ in range(15):
            current = game.state()
            if current.result is not None:
                return
            seat = current.to_move[0]
            legal = current.legal_actions(seat)
            # Half the threads race on the very same action, the rest pick their own.
            action = legal[0] if n % 2 else rng.choice(legal)
            response = act(game.clients[n % 2], game.id, game.tokens[seat], action)
            with lock:
                outcomes[response.status_code] += 1

    run_in_threads(worker, 8)

    final = view(game.clients[1], game.id)
    events = game.clients[0].get(f"/api/v1/games/{game.id}/events").json["events"]
    versions = [e["version"] for e in events]
    assert sorted(set(versions)) == list(range(1, final["version"] + 1)), "gapless versions"
    assert versions == sorted(versions)
    # Versions 1-4 are: created, joined, joined, started; every later one is one action.
    actions = [e for e in events if e["type"] in ("play", "exchange", "pass")]
    applied = final["version"] - 4
    assert [e["version"] for e in actions] == list(range(5, final["version"] + 1))
    assert outcomes[200] == applied and outcomes[200] > 10
    assert set(outcomes) <= {200, 409}, outcomes
    assert cards_in_play(game.state()) == Counter(DECK)


def test_retried_and_racing_requests_apply_each_action_once(redis_url, prefix):
    game = shared_game(redis_url, prefix, "stacks", seed=12)
    applied_keys: list[str] = []
    lock = threading.Lock()

    def worker(n):
        rng = random.Random(n)
        for attempt in range(12):
            current = game.state()
            if current.result is not None:
                return
            seat = current.to_move[0]
            action = rng.choice(current.legal_actions(seat))
            key = f"w{n}-{attempt}"
            # The same request sent three times, to both instances: a phone retrying.
            answers = [
                act(game.clients[k % 2], game.id, game.tokens[seat], action,
                    **{"Idempotency-Key": key})
                for k in range(3)
            ]  # fmt: skip
            codes = {a.status_code for a in answers}
            if 200 in codes:
                assert codes == {200}, "a retry of an applied action must replay its answer"
                assert all(a.json == answers[0].json for a in answers)
                with lock:
                    applied_keys.append(key)

    run_in_threads(worker, 6)

    events = game.clients[1].get(f"/api/v1/games/{game.id}/events").json["events"]
    final = view(game.clients[0], game.id)
    assert sorted({e["version"] for e in events}) == list(range(1, final["version"] + 1))
    moves = ("play", "discard", "pass", "answer")  # answer: Block or pass in a block window
    played = [e for e in events if e["version"] > 4 and e["type"] in moves]
    versions_with_a_move = {e["version"] for e in played}
    assert len(versions_with_a_move) == len(applied_keys) == final["version"] - 4
    assert cards_in_play(game.state()) == Counter(deck_for(2))
