"""What a game costs Redis: bytes per game and per event, commands per action.

    python bench/sizing.py [--games 20] [--store redis|cluster]

Plays --games two-human games of each variant to a fixed number of actions
(Sequence 40, Stacks 70: about mid-game) with random legal actions through the
app on a Redis of its own, then reads:
  - MEMORY USAGE of each game's state and event list (and their sum per game),
    and bytes per stored event;
  - Redis CPU per action played (with its reads), from INFO cpu;
  - Redis commands per action, from INFO commandstats before and after the
    actions alone (on a cluster, summed over the masters): what one POST of an
    action costs the store, its script's own commands counted too.
These are the figures docs/scaling.md sizes hardware from.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/http.py would hide the stdlib's http: keep this folder at the end of the path.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import random
import statistics
from typing import Any

from stacks_api.app import create_app
from stacks_api.runtime.config import TestConfig
from stacks_api.store.redis_connect import connect
from stacks_api.testing import RedisClusterServer, RedisServer

API = "/api/v1/games"
ACTIONS = {"sequence": 40, "stacks": 70}


def commands(nodes: list[Any]) -> dict[str, int]:
    """Calls per command so far, summed over ``nodes``."""
    total: dict[str, int] = {}
    for node in nodes:
        for name, stats in node.info("commandstats").items():
            total[name] = total.get(name, 0) + int(stats["calls"])
    return total


class Table:
    """A two-human game through the app's test client, moved at random."""

    def __init__(self, client: Any, variant: str, rng: random.Random) -> None:
        self.client, self.rng = client, rng
        self.id = client.post(API, json={"variant": variant, "players": 2}).json["game"]["id"]
        self.tokens = [client.post(f"{API}/{self.id}/players", json={"name": n}).json["token"]
                       for n in ("A", "B")]  # fmt: skip

    def next_move(self) -> tuple[dict[str, str], Any] | None:
        """The mover's credentials and a random legal action (the spectator's GET and
        the mover's view), or None once the game is over."""
        state = self.client.get(f"{API}/{self.id}").json
        if state["status"] != "active":
            return None
        auth = {"Authorization": f"Bearer {self.tokens[state['to_move'][0]]}"}
        mine = self.client.get(f"{API}/{self.id}", headers=auth).json
        return auth, self.rng.choice(mine["you"]["legal_actions"])

    def post(self, auth: dict[str, str], action: Any) -> None:
        self.client.post(f"{API}/{self.id}/actions", json=action, headers=auth)


def play(client: Any, variant: str, actions: int, rng: random.Random) -> tuple[str, int]:
    """A two-human game played ``actions`` times (fewer if it ends); its id and the
    actions posted."""
    table, posted = Table(client, variant, rng), 0
    while posted < actions and (move := table.next_move()) is not None:
        table.post(*move)
        posted += 1
    return table.id, posted


def redis_cpu(nodes: list[Any]) -> float:
    """CPU seconds the Redis servers have used so far."""
    used = 0.0
    for node in nodes:
        cpu = node.info("cpu")
        used += float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])
    return used


def action_cost(client: Any, nodes: list[Any], variant: str) -> dict[str, float]:
    """Commands per action: one more game, its reads and writes apart."""
    table = Table(client, variant, random.Random(7))
    spent: dict[str, int] = {}
    count = 0
    while count < 30 and (move := table.next_move()) is not None:
        before = commands(nodes)
        table.post(*move)
        after = commands(nodes)
        for name, calls in after.items():
            spent[name] = spent.get(name, 0) + calls - before.get(name, 0)
        spent["cmdstat_info"] = spent.get("cmdstat_info", 0) - len(nodes)  # our own INFO
        count += 1
    return {name.removeprefix("cmdstat_"): calls / count for name, calls in spent.items() if calls}


def ping_cost(nodes: list[Any], count: int = 2000) -> float:
    """Redis CPU seconds of one PING round trip to one node: the baseline that makes an
    action's cost comparable across machines."""
    cpu = redis_cpu(nodes)
    for _ in range(count):
        nodes[0].ping()
    return (redis_cpu(nodes) - cpu) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--store", choices=["redis", "cluster"], default="redis")
    args = parser.parse_args()
    server = RedisServer() if args.store == "redis" else RedisClusterServer()
    server.start()
    try:
        app = create_app(TestConfig, REDIS_URL=server.url, STORE_PREFIX="size", JOBS="workers")
        client, store = app.test_client(), app.extensions["stacks_api.games"].table.store
        nodes = connect(server.url, 2.0).masters()
        rng = random.Random(1)
        for variant, actions in ACTIONS.items():
            totals, per_event, states, lists = [], [], [], []
            cpu, posted = redis_cpu(nodes), 0
            for _ in range(args.games):
                game_id, count = play(client, variant, actions, rng)
                posted += count
                state = store.client.memory_usage(store.keys.state(game_id))
                events = store.client.memory_usage(store.keys.events(game_id))
                stored = store.client.llen(store.keys.events(game_id))
                totals.append(state + events)
                states.append(state)
                lists.append(events)
                per_event.append(events / stored)
            print(f"{variant} after {actions} actions: {statistics.median(totals) / 1024:.1f} KB "
                  f"a game (state {statistics.median(states) / 1024:.1f} KB, events "
                  f"{statistics.median(lists) / 1024:.1f} KB), "
                  f"{statistics.median(per_event):.0f} bytes an event")  # fmt: skip
            cpu = (redis_cpu(nodes) - cpu) / posted
            ping = ping_cost(nodes)
            print(f"{variant}: Redis CPU {cpu * 1e6:.0f} us per action played (the spectator's "
                  f"GET, the mover's view and the POST) = {cpu / ping:.1f} PING round trips "
                  f"({ping * 1e6:.1f} us each, same run)")  # fmt: skip
            cost = action_cost(client, nodes, variant)
            listed = ", ".join(f"{name} {calls:.2f}" for name, calls in sorted(cost.items()))
            print(f"{variant} commands per action: {sum(cost.values()):.1f} ({listed})")
    finally:
        server.cleanup()


if __name__ == "__main__":
    main()
