"""Load-generation helpers shared by the HTTP benchmarks (client threads on requests)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import requests


def percentile(values: list[float], q: float) -> float:
    """The q-quantile of ``values`` (seconds), in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


class Game:
    """A two-human Sequence game and its seat tokens."""

    def __init__(self, session: requests.Session, base: str, seed: int) -> None:
        body = {"variant": "sequence", "players": 2, "seed": seed}
        self.id = session.post(f"{base}/games", json=body).json()["game"]["id"]
        self.tokens = [
            session.post(f"{base}/games/{self.id}/players", json={"name": f"p{i}"}).json()["token"]
            for i in range(2)
        ]

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


def play(base: str, until: float, seed: int, out: dict[str, list[Any]]) -> None:
    """Play random legal actions (GET the mover's view, POST one) until ``until``."""
    session = requests.Session()
    rng = random.Random(seed)
    game = None
    while time.perf_counter() < until:
        if game is None:
            game = Game(session, base, rng.randrange(1 << 30))
        spectator = session.get(f"{base}/games/{game.id}").json()
        if spectator["status"] != "active":
            game = None
            continue
        auth = game.auth(spectator["to_move"][0])
        mine = session.get(f"{base}/games/{game.id}", headers=auth).json()
        start = time.perf_counter()
        answer = session.post(
            f"{base}/games/{game.id}/actions",
            json=rng.choice(mine["you"]["legal_actions"]),
            headers=auth,
        )
        done = time.perf_counter()
        if answer.status_code != 200:
            out["errors"].append(answer.status_code)
            continue
        out["action"].append(done - start)
        out.setdefault("answers", []).append((game.id, answer.json()["game"]["version"], done))


def hammer(url: str, until: float, out: list[float], headers: dict[str, str] | None = None) -> None:
    """GET ``url`` back to back until ``until``, noting each latency."""
    session = requests.Session()
    while time.perf_counter() < until:
        start = time.perf_counter()
        session.get(url, headers=headers or {})
        out.append(time.perf_counter() - start)


def run_threads(targets: list[Callable[[], None]]) -> float:
    """Run each target on its own thread; the seconds until all are done."""
    threads = [threading.Thread(target=target) for target in targets]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started
