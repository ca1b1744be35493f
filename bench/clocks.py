"""How late turn clocks fire when many run out at once.

    python bench/clocks.py [--games 200] [--turn-seconds 5] [--bot-workers 2]

Starts its own redis-server and ``stacks-api serve``; creates two-person Sequence
games with a turn clock, then takes the last seat of every game in one burst, so
their clocks all start (and run out) within about a second. Nobody moves: every
first turn runs out and is played by the server. For each game, the lateness is
the time of the change that played the timed-out turn (the record's
``updated_at``, the server's clock) minus the deadline the view showed. The same
is measured first for a single game on the idle server: the baseline.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))  # as in http.py: the helpers beside it are found last

import argparse
import json
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import redis
from load import percentile

from stacks_api.client import Client
from stacks_api.store.keys import Keys
from stacks_api.testing import RedisServer, ServerProcess


def lateness(api: Client, store: redis.Redis, games: int, turn_seconds: float) -> list[float]:
    """Seconds past its deadline at which each game's first turn was played for it."""
    ids = [api.create("sequence", 2, options={"turn_seconds": turn_seconds})["id"]
           for _ in range(games)]  # fmt: skip
    for game_id in ids:
        api.join(game_id, "first", seat=0)
    with ThreadPoolExecutor(16) as pool:  # the last seats in one burst: the clocks start
        list(pool.map(lambda game_id: api.join(game_id, "second", seat=1), ids))
    deadlines = {game_id: api.view(game_id)["deadline"] for game_id in ids}
    time.sleep(max(deadlines.values()) - time.time() + 3)
    keys, late = Keys("stacks"), []
    for game_id in ids:
        record = json.loads(store.get(keys.state(game_id)))
        events = api.events(game_id)
        assert any(e["type"] == "timeout" for e in events), f"{game_id}: no timeout fired"
        late.append(record["updated_at"] - deadlines[game_id])
    return late


def show(name: str, late: list[float]) -> None:
    ms = [1000 * s for s in late]
    print(f"{name:24} p50 {statistics.median(ms):7.1f} ms   p99 {percentile(late, 0.99):7.1f} ms   "
          f"max {max(ms):7.1f} ms   ({len(ms)} games)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turn-seconds", type=float, default=5)
    parser.add_argument("--bot-workers", type=int, default=2)
    args = parser.parse_args()
    store = RedisServer()
    store.start()
    server = ServerProcess({"REDIS_URL": store.url}, workers=2, bot_workers=args.bot_workers)
    try:
        api, client = Client(server.url), redis.Redis.from_url(store.url)
        print(f"stacks-api serve: 2 web workers, {args.bot_workers} bot workers, Redis; "
              f"turn_seconds {args.turn_seconds:g}")  # fmt: skip
        show("1 game, idle server", lateness(api, client, 1, args.turn_seconds))
        show(f"{args.games} games at once", lateness(api, client, args.games, args.turn_seconds))
    finally:
        server.stop()
        store.cleanup()


if __name__ == "__main__":
    main()
