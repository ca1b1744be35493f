"""What the metrics cost the hot path: a seat's view with metrics on and off.

    python bench/metrics.py [--seconds 6] [--rounds 4] [--connections 16] [--workers 2]

Starts one redis-server and two ``stacks-api serve`` beside it, the same code, one
with ``STACKS_METRICS=on`` (the default) and one with ``off``, each with a
two-human Sequence game to view. wrk then asks each server in turn for the
seat's view, ``--rounds`` times (the turns interleave, so a slow spell of the
machine hits both; which goes first alternates), and the script prints each
round's rates and the median ratio on/off. Access logs are off in both (they
are not the metrics' cost).
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))  # as in http.py: the helpers beside it are found last

import argparse
import shutil
import statistics

from wrk import wrk

from stacks_api.client import Client
from stacks_api.testing import RedisServer, ServerProcess


def seat_view(server: ServerProcess) -> tuple[str, dict[str, str]]:
    api = Client(server.url)
    game_id = api.create("sequence", 2, seed=7)["id"]
    tokens = [api.join(game_id, f"p{s}", seat=s).token for s in range(2)]  # both: dealt
    return f"{server.url}/api/v1/games/{game_id}", {"Authorization": f"Bearer {tokens[0]}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (apt-get install wrk)")
    store = RedisServer()
    store.start()
    servers = {}
    try:
        for name in ("on", "off"):
            env = {"REDIS_URL": store.url, "STACKS_STORE_PREFIX": f"metrics-{name}",
                   "STACKS_RATE_LIMITS": "off", "STACKS_METRICS": name}  # fmt: skip
            servers[name] = ServerProcess(env, args.workers, bot_workers=0)
        views = {name: seat_view(server) for name, server in servers.items()}
        rates: dict[str, list[float]] = {"on": [], "off": []}
        for n in range(args.rounds):
            order = ("on", "off") if n % 2 == 0 else ("off", "on")  # neither always first
            for name in order:
                url, headers = views[name]
                rate, refused = wrk(url, args.seconds, args.connections, headers=headers)
                assert refused == 0, f"{refused} refused views"
                rates[name].append(rate)
    finally:
        for server in servers.values():
            server.stop()
        store.cleanup()
    print(f"GET a seat's view: {args.workers} gevent web workers, Redis, wrk "
          f"{args.connections} connections, {args.seconds:g} s x {args.rounds} rounds "
          "each")  # fmt: skip
    ratios = [on / off for on, off in zip(rates["on"], rates["off"], strict=True)]
    for n, (on, off) in enumerate(zip(rates["on"], rates["off"], strict=True), 1):
        print(f"  round {n}: metrics on {on:8.1f}/s   off {off:8.1f}/s   on/off {on / off:.3f}")
    print(f"metrics on / off: median {statistics.median(ratios):.3f} "
          f"(rounds {min(ratios):.3f}-{max(ratios):.3f}); the goal is at least 0.95")  # fmt: skip


if __name__ == "__main__":
    main()
