"""What the first game costs a fresh process, in CPU seconds.

    python bench/first_game.py [--against REV]

In a new Python process each time: the engine alone (import it, deal a game,
play 20 moves), then import the app and build it (what happens
once, before a server takes requests), then play the first game through the
app (create, two joins, a view, one action), then the same again as a second
game. The first game should cost little more than the second: tables are built
once per process before serving, not inside a player's first request. With
``--against``, the same is measured for another revision (a git worktree).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 5

PROBE = r"""
import json, time
started = time.process_time()
import stacks_api.engine as engine
game = engine.create_game("sequence", players=2, seed=1)
for _ in range(20):
    seat = game.to_move[0]
    game.apply(seat, game.legal_actions(seat)[0])
engine_only = time.process_time() - started
from stacks_api.app import create_app
from stacks_api.runtime.config import TestConfig
app = create_app(TestConfig)
client = app.test_client()
ready = time.process_time()

def one_game():
    start = time.process_time()
    created = client.post("/api/v1/games", json={"variant": "sequence", "players": 2, "seed": 1})
    game_id = created.json["game"]["id"]
    tokens = [client.post(f"/api/v1/games/{game_id}/players", json={"name": f"p{s}"}).json["token"]
              for s in range(2)]
    views = [client.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {t}"}).json
             for t in tokens]
    seat = views[0]["to_move"][0]
    action = views[seat]["you"]["legal_actions"][0]
    answer = client.post(f"/api/v1/games/{game_id}/actions", json=action,
                         headers={"Authorization": f"Bearer {tokens[seat]}"})
    assert answer.status_code == 200, answer.json
    return time.process_time() - start

first = one_game()
second = one_game()
import stacks_api
print(json.dumps({"engine": engine_only, "startup": ready - started, "first": first,
                  "second": second, "from": stacks_api.__file__}))
"""


def measure(root: Path) -> dict[str, float]:
    """Medians over RUNS fresh processes, in milliseconds."""
    runs = []
    env = {**os.environ, "PYTHONPATH": str(root)}
    for _ in range(RUNS):
        out = subprocess.run([sys.executable, "-c", PROBE], cwd=root, capture_output=True,
                             text=True, check=True, env=env)  # fmt: skip
        run = json.loads(out.stdout.strip().splitlines()[-1])
        assert Path(run.pop("from")).is_relative_to(root), "measured another tree's package"
        runs.append(run)
    return {key: 1000 * statistics.median(r[key] for r in runs) for key in runs[0]}


def report(name: str, figures: dict[str, float]) -> None:
    first, second = figures["first"], figures["second"]
    print(f"{name:12} engine alone: import, a game, 20 moves {figures['engine']:6.1f} ms CPU   "
          f"import and build the app {figures['startup']:7.1f} ms   "
          f"first game {first:6.1f} ms   second game {second:6.1f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="another revision to measure beside this one")
    args = parser.parse_args()
    report("this tree", measure(ROOT))
    if args.against:
        with tempfile.TemporaryDirectory() as where:
            subprocess.run(["git", "worktree", "add", "--detach", where, args.against],
                           cwd=ROOT, check=True, capture_output=True)  # fmt: skip
            try:
                report(args.against[:12], measure(Path(where)))
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", where], cwd=ROOT,
                               check=True, capture_output=True)  # fmt: skip


if __name__ == "__main__":
    main()
