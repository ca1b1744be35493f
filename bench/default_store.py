"""What keeping the games costs the README's server: moves of two-person games
over HTTP on ``stacks-api serve`` without REDIS_URL, on its own redis-server (every
write on disk before it is answered) against games kept in memory.

    python bench/default_store.py [--games 4] [--moves 40] [--rounds 3]

Each round starts both servers in turn (in a fresh data folder) and plays the same
games through each; it prints each store's median move latency and moves a
second, and their ratio.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import statistics
import tempfile
import time

from stacks_api.client import Client
from stacks_api.testing import ServerProcess

STORES = {"memory": {"STACKS_STORE": "memory"}, "own redis-server": {"STACKS_STORE": ""}}


def play(url: str, games: int, moves: int) -> list[float]:
    """Seconds each move's request took, over ``games`` games of ``moves`` moves."""
    api = Client(url)
    took = []
    for seed in range(games):
        game = api.create("sequence", 2, seed=seed)
        tokens = [api.join(game["id"], name).token for name in ("Ada", "Bo")]
        for _ in range(moves):
            view = api.view(game["id"])
            if view["status"] != "active":
                break
            mover = view["to_move"][0]
            action = api.view(game["id"], tokens[mover])["you"]["legal_actions"][0]
            start = time.perf_counter()
            api.act(game["id"], tokens[mover], action)
            took.append(time.perf_counter() - start)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    medians: dict[str, list[float]] = {name: [] for name in STORES}
    for _ in range(args.rounds):
        for name, env in STORES.items():
            with tempfile.TemporaryDirectory() as folder:
                server = ServerProcess({"REDIS_URL": "", "DATABASE_URL": "",
                                        "STACKS_DATA_DIR": folder, **env})  # fmt: skip
                try:
                    medians[name].append(statistics.median(play(server.url, args.games,
                                                                args.moves)))  # fmt: skip
                finally:
                    server.stop()
    for name, found in medians.items():
        median = statistics.median(found)
        print(f"{name:17}: median move {median * 1000:6.2f} ms "
              f"(rounds {', '.join(f'{m * 1000:.2f}' for m in found)}), "
              f"{1 / median:6.0f} moves/s in a row")  # fmt: skip
    ratio = statistics.median(medians["own redis-server"]) / statistics.median(medians["memory"])
    print(f"own redis-server / memory: {ratio:.2f}x a move")


if __name__ == "__main__":
    main()
