"""The tree search's speed: iterations per CPU second, one core.

    python bench/search.py [--positions 12] [--iterations 300] [--variant sequence|stacks|all]
                           [--against REV] [--rounds 3]

Positions come from seeded games of the greedy bot (every sixth decision of a seat
from the eighth on, so they are mid-game and comparable between runs). Each is
searched with the variant's tuning, ``--iterations`` a search and no time cap worth
the name. Time is the process's CPU time.

A figure alone says little: machines of one kind differ several times over. So each
line comes with a baseline from the same run. By default that is greedy decisions
per CPU second on the same positions (it moves with the machine's speed, though not
with changes to greedy itself). With ``--against REV``, another git revision is
checked out in a temporary worktree and the same searches of the same positions run
with each tree's code in fresh subprocesses, taking turns ``--rounds`` times; the
line gives the median of the rounds' speed-ups of this tree over that revision.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from revision import ROOT, checkout

from stacks_api import bots
from stacks_api.bots import ismcts, rollout
from stacks_api.engine import create_game

View = dict[str, Any]


def positions(variant: str, count: int) -> list[View]:
    """``count`` mid-game views of the seat to move, from greedy games."""
    views: list[View] = []
    seed = 0
    while len(views) < count:
        game, rng, decisions = create_game(variant, players=2, seed=seed), random.Random(seed), 0
        while game.result is None and len(views) < count:
            seat = game.to_move[0]
            view = game.view(seat)
            decisions += 1
            # No open block window: a position cannot describe one.
            if decisions >= 8 and decisions % 6 == 0 and view.get("block_window") is None:
                views.append(view)
            game.apply(seat, bots.choose("medium", view, rng))
        seed += 1
    return views


def cpu(work: Any) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def search_speed(views: list[View], iterations: int) -> float:
    """Iterations per CPU second over ``views``, with their variant's tuning."""
    branching = rollout.kit_of(views[0]).tuning.branching
    made = []  # a search makes its budget in whole rounds: count what it made

    def search_all() -> None:
        for n, view in enumerate(views):
            budget = replace(ismcts.tuned(view, 1.0), iterations=iterations, seconds=3600)
            _, root = ismcts.search(view, random.Random(n), budget, branching)
            made.append(sum(child.visits for child in root.children.values()))

    seconds = cpu(search_all)  # first: ``made`` fills only as the searches run
    return sum(made) / seconds


def greedy_speed(views: list[View]) -> float:
    """Greedy decisions per CPU second over ``views``."""

    def greedy_all() -> None:
        for _ in range(50):
            for n, view in enumerate(views):
                bots.choose("medium", view, random.Random(n))

    return 50 * len(views) / cpu(greedy_all)


def speed_in(source: Path, views_file: Path, iterations: int) -> float:
    """``search_speed`` with the code of the tree at ``source``, in a fresh interpreter,
    on the views saved in ``views_file`` (the same for every tree: another revision's
    greedy could reach other positions)."""
    command = [sys.executable, __file__, "--iterations", str(iterations),
               "--speed-of", str(views_file)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    speed: float = json.loads(done.stdout)
    return speed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="all")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--against", metavar="REV", help="compare with this git revision")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--speed-of", type=Path, help=argparse.SUPPRESS)  # for speed_in
    args = parser.parse_args()
    if args.speed_of:
        print(json.dumps(search_speed(json.loads(args.speed_of.read_text()), args.iterations)))
        return
    names = ["sequence", "stacks"] if args.variant == "all" else [args.variant]
    for name in names:
        views = positions(name, args.positions)
        if args.against is None:
            here, greedy = search_speed(views, args.iterations), greedy_speed(views)
            print(
                f"{name:9} {here:9.0f} iterations/s   greedy {greedy:8.0f} decisions/s"
                f"   ratio {here / greedy:.3f} iterations per greedy decision"
            )
            continue
        with checkout(args.against) as other, tempfile.TemporaryDirectory() as folder:
            views_file = Path(folder) / "views.json"
            views_file.write_text(json.dumps(views))
            ours, theirs = [], []
            for _ in range(args.rounds):
                ours.append(speed_in(ROOT, views_file, args.iterations))
                theirs.append(speed_in(other, views_file, args.iterations))
        ratio = statistics.median(a / b for a, b in zip(ours, theirs, strict=True))
        print(
            f"{name:9} {statistics.median(ours):9.0f} iterations/s here   "
            f"{statistics.median(theirs):9.0f} at {args.against}   speed-up {ratio:.2f}x"
        )


if __name__ == "__main__":
    main()
