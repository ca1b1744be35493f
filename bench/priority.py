"""People first: a person's bot replies and turn clocks beside games of bots alone.

    python bench/priority.py [--replies 20] [--timeouts 4] [--busy 0 10 50] [--against REV]

Starts its own redis-server and ``stacks-api serve`` (2 web workers, 2 bot
workers, no rate limits), then for each number in --busy: starts that many
games of two `strong` bots alone, and while they run measures
  1. a person's bot reply: the round trip of an action with `Prefer: wait=10`
     in a game against the `easy` bot (the answer comes once the bot has
     replied), --replies times;
  2. a turn clock's lateness: in a game of two people with 5-second turns where
     nobody acts, from the deadline the view shows to the `timeout` event on
     the event stream, --timeouts times.
It prints p50 and p99 of each beside the figures with no busy games, measured
in the same run. With --against, the same runs on that revision's server too.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import json
import time

import requests
from revision import checkout

from stacks_api.client import Client
from stacks_api.testing import RedisServer, ServerProcess

STRONG_ALONE = [{"bot": "strong"}, {"bot": "strong"}]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def replies(api: Client, count: int) -> list[float]:
    """Round trips of actions answered once the easy bot has replied."""
    took: list[float] = []
    while len(took) < count:
        game = api.create("sequence", 2, seats=[{}, {"bot": "easy"}])
        me = api.join(game["id"], "Ada")
        view = api.view(game["id"], me.token, wait=10)
        while view["status"] == "active" and len(took) < count:
            started = time.perf_counter()
            view = api.act(game["id"], me.token, view["you"]["legal_actions"][0], wait=10)["game"]
            took.append(time.perf_counter() - started)
    return took


def lateness(url: str, api: Client, count: int) -> list[float]:
    """How late each 5-second turn clock fired, as the event stream delivered it (each
    seat is away after its third: at most 6)."""
    game = api.create("sequence", 2, options={"turn_seconds": 5})
    for name in ("Ada", "Bo"):
        api.join(game["id"], name)
    late: list[float] = []
    address = f"{url}/api/v1/games/{game['id']}/events"
    headers = {"Accept": "text/event-stream"}
    deadline = api.view(game["id"])["deadline"]
    with requests.get(address, headers=headers, stream=True, timeout=120) as stream:
        for raw in stream.iter_lines():
            if not raw.startswith(b"data: "):
                continue
            event = json.loads(raw[6:])
            if event["type"] == "timeout":
                late.append(time.time() - deadline)
                if len(late) == count:
                    break
                # The same write started the next turn's clock: its deadline.
                deadline = api.view(game["id"])["deadline"]
    return late


def measure(redis_url: str, prefix: str, busy_counts: list[int], replies_n: int,
            timeouts_n: int, tree: Path | None) -> None:  # fmt: skip
    env = {"REDIS_URL": redis_url, "STACKS_STORE_PREFIX": prefix}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    server = ServerProcess(env, workers=2, bot_workers=2)
    label = "this tree" if tree is None else tree.name
    try:
        api = Client(server.url)
        running: list[str] = []
        for busy in busy_counts:
            while len(running) < busy:
                running.append(api.create("sequence", 2, seats=STRONG_ALONE)["id"])
            took = replies(api, replies_n)
            late = lateness(server.url, api, timeouts_n)
            moving = sum(api.view(g)["version"] > 2 for g in running)
            print(f"{label:>10}: beside {busy:3d} games of strong bots alone ({moving} moving): "
                  f"bot reply p50 {percentile(took, 0.5):6.3f} s, p99 {percentile(took, 0.99):6.3f}"
                  f" s; clock late p50 {percentile(late, 0.5):6.3f} s, p99 "
                  f"{percentile(late, 0.99):6.3f} s", flush=True)  # fmt: skip
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=20)
    parser.add_argument("--timeouts", type=int, default=4)
    parser.add_argument("--busy", type=int, nargs="*", default=[0, 10, 50])
    parser.add_argument("--against", help="another revision, measured the same way after")
    args = parser.parse_args()
    redis_server = RedisServer()
    redis_server.start()
    try:
        measure(redis_server.url, "here", args.busy, args.replies, args.timeouts, None)
        if args.against:
            with checkout(args.against) as other:
                measure(redis_server.url, "there", args.busy, args.replies, args.timeouts,
                        other)  # fmt: skip
    finally:
        redis_server.cleanup()


if __name__ == "__main__":
    main()
