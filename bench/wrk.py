"""The hot path's cost against a bare Flask route, measured with wrk (a C load
generator, so the client takes little of the CPU the server needs).

    python bench/wrk.py [--seconds 8] [--connections 16] [--workers 2] [--rounds 3]

Starts its own redis-server, ``stacks-api serve`` (gevent web workers, rate
limits off) and, beside it on the same Redis, bench/bare.py under the same
gunicorn worker with as many workers: a Flask route that answers one Redis GET
of a game's state. Then runs these phases of the same length, back to back:
  1. GET the bare route (the baseline: what one Redis GET behind Flask costs);
  2. the same route inside the server's own app (bench/bare.py's ``hooked``):
     the request id, metrics, CORS and body checks around the same GET, the
     bound of what any view can reach;
  3. GET /api/v1/health;
  4. GET a seat's view of an active two-human Sequence game (no If-None-Match:
     each answer is the whole view);
  5. GET the same game as a spectator;
  6. POST /api/v1/games (a two-human Sequence game, so no bot wakes);
  7. POST one action: a list of legal actions worked out beforehand by replaying
     the same seeded games in the engine here, sent round-robin over many games
     (a move that arrives before the one ahead of it is refused and counted).
Each phase prints its rate and its ratio to the bare route in the same round
(the median over rounds, and their range). With
``--against REV``, the same is then measured for that revision (a git worktree),
so the two trees are compared on the same machine minutes apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))  # as in http.py: the helpers beside it are found last

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from load import served_on_redis

from stacks_api.client import Client
from stacks_api.engine import create_game
from stacks_api.testing import free_port

GAMES = 300
MOVES_PER_GAME = 40
CREATE = {"variant": "sequence", "players": 2}


def lua_string(text: str) -> str:
    return "[==[" + text + "]==]"


def action_script(url: str, seats: list[tuple[str, list[str]]], seeds: list[int]) -> str:
    """A wrk script sending each game's legal actions in turn, round-robin over the games."""
    rows = []
    for (game_id, tokens), seed in zip(seats, seeds, strict=True):
        game = create_game("sequence", players=2, seed=seed)
        rng = random.Random(seed)
        moves = []
        for _ in range(MOVES_PER_GAME):
            if game.result is not None:
                break
            seat = game.to_move[0]
            action = rng.choice(game.legal_actions(seat))
            game.apply(seat, action)
            moves.append(f"{{{lua_string(tokens[seat])},{lua_string(json.dumps(action))}}}")
        rows.append(f"{{{lua_string(f'/api/v1/games/{game_id}/actions')},{{{','.join(moves)}}}}}")
    return f"""
games = {{{",".join(rows)}}}
n = 0
request = function()
  local game = games[(n % #games) + 1]
  local move = game[2][math.floor(n / #games) + 1]
  n = n + 1
  if move == nil then move = game[2][#game[2]] end
  return wrk.format("POST", game[1], {{["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. move[1]}}, move[2])
end
"""


def wrk(url: str, seconds: float, connections: int, script: str | None = None,
        headers: dict[str, str] | None = None) -> tuple[float, int]:  # fmt: skip
    """Requests a second, and how many answers were not 2xx/3xx."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", "--latency"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as lua:
        if script:
            lua.write(script)
            lua.flush()
            command += ["-s", lua.name]
        out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    refused = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rate, int(refused.group(1)) if refused else 0


class Bare(NamedTuple):
    """bench/bare.py being served: its URL and its gunicorn master's pid."""

    url: str
    pid: int


@contextmanager
def bare_server(
    redis_url: str, workers: int, env: dict[str, str], app: str = "bench.bare:app"
) -> Iterator[Bare]:
    """bench/bare.py under gunicorn with the server's own worker class."""
    port = free_port()
    root = str(Path(__file__).parents[1])
    counted = tempfile.mkdtemp(prefix="stacks-bench-metrics-")  # as serve counts, in files
    settings = {"REDIS_URL": redis_url, "STACKS_RATE_LIMITS": "off", "STACKS_ACCESS_LOG": "off",
                "PROMETHEUS_MULTIPROC_DIR": counted, "STACKS_DATA_DIR": counted,
                "STACKS_DATABASE_MIGRATE": "off"}  # fmt: skip
    # As serve does: the archive is brought up to date once, not by each worker at once.
    upgrade = [sys.executable, "-m", "stacks_api.cli", "db", "upgrade"]
    subprocess.run(upgrade, env={**os.environ, **env, **settings}, check=True, capture_output=True)
    command = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}",
               "--workers", str(workers), "--worker-class", "stacks_api.runtime.serving.Worker",
               "--no-control-socket", "--chdir", root, app]  # fmt: skip
    process = subprocess.Popen(command, env={**os.environ, **env, **settings},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"{url}/bare/none", timeout=1)
            except urllib.error.HTTPError:
                break  # 404: it answers
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("bench/bare.py did not start") from None
                time.sleep(0.1)
        yield Bare(url, process.pid)
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(counted, ignore_errors=True)


def measure(args: argparse.Namespace, env: dict[str, str]) -> dict[str, tuple[float, int]]:
    """Each phase's requests a second and refusals, on servers of their own."""
    with served_on_redis(env, args.workers) as (server, redis_url), \
            bare_server(redis_url, args.workers, env) as bare, \
            bare_server(redis_url, args.workers, env, "bench.bare:hooked()") as hooked:  # fmt: skip
        api = Client(server.url)
        seeds = list(range(1, GAMES + 1))
        seats = []
        for seed in seeds:
            created = api.create("sequence", 2, seed=seed)
            game_id = created["id"]
            tokens = [api.join(game_id, f"p{s}", seat=s).token for s in range(2)]
            seats.append((game_id, tokens))
        viewed_id, viewed_tokens = seats[0]
        base = f"{server.url}/api/v1"
        run = {"seconds": args.seconds, "connections": args.connections}
        create_lua = f'wrk.method = "POST"\nwrk.body = {lua_string(json.dumps(CREATE))}\n'
        create_lua += 'wrk.headers["Content-Type"] = "application/json"\n'
        seat_auth = {"Authorization": f"Bearer {viewed_tokens[0]}"}
        return {
            "GET bare": wrk(f"{bare.url}/bare/{viewed_id}", **run),
            "GET bare, hooked": wrk(f"{hooked.url}/api/v1/bare/{viewed_id}", **run),
            "GET health": wrk(f"{base}/health", **run),
            "GET seat view": wrk(f"{base}/games/{viewed_id}", headers=seat_auth, **run),
            "GET spectator": wrk(f"{base}/games/{viewed_id}", **run),
            "POST games": wrk(f"{base}/games", script=create_lua, **run),
            "POST action": wrk(server.url, script=action_script(server.url, seats, seeds), **run),
        }


def report(name: str, runs: list[dict[str, tuple[float, int]]]) -> None:
    """Per phase: the median rate, and the median of each round's ratio to its bare route."""
    print(name)
    for phase in runs[0]:
        rates = [run[phase][0] for run in runs]
        ratios = [run[phase][0] / run["GET bare"][0] for run in runs]
        refused = sum(run[phase][1] for run in runs)
        print(f"  {phase:14} {statistics.median(rates):8.1f}/s  "
              f"{statistics.median(ratios):5.2f}x bare "
              f"(rounds {min(ratios):.2f}-{max(ratios):.2f})   refused {refused}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--against", help="another revision, measured in turn with this tree")
    parser.add_argument("--rounds", type=int, default=3, help="turns of each tree (medians)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (apt-get install wrk)")
    print(f"stacks-api serve: {args.workers} gevent web workers, Redis; wrk "
          f"{args.connections} connections, {args.seconds:g} s a phase, "
          f"{args.rounds} round(s)")  # fmt: skip
    with contextlib.ExitStack() as stack:
        trees = {"this tree": {}}
        if args.against:
            where = stack.enter_context(worktree(args.against))
            trees[args.against] = {"PYTHONPATH": str(where)}
        runs: dict[str, list[dict[str, tuple[float, int]]]] = {name: [] for name in trees}
        for _ in range(args.rounds):  # the trees take turns, so a slow spell hits both
            for name, env in trees.items():
                runs[name].append(measure(args, env))
    for name, measured in runs.items():
        report(name, measured)


@contextmanager
def worktree(revision: str) -> Iterator[Path]:
    """A checkout of ``revision`` beside this one, removed afterwards."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as where:
        git = ["git", "-C", str(root), "worktree"]
        subprocess.run([*git, "add", "--detach", where, revision], check=True, capture_output=True)
        try:
            yield Path(where)
        finally:
            subprocess.run([*git, "remove", "--force", where], check=True, capture_output=True)


if __name__ == "__main__":
    main()
