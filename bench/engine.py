"""Random games through the engine façade: games and actions per second, one core.

    python bench/engine.py [--seconds 5] [--variant sequence|stacks|all] [--players 2]
    python bench/engine.py --against 3684132     # this tree's engine against another revision's

Each step is what any client does: ``legal_actions`` for the seat to move, then
``apply`` of a uniformly random choice (fixed seeds, so runs are comparable). Time is
the process's CPU time, not the clock's: on a shared machine a neighbour's load
stalls the process without costing it CPU time.
With ``--against REV`` the other revision is checked out in a temporary git
worktree and both engines run in alternating subprocesses, ``--rounds`` each, in
the same run; the figures to read are the median of the rounds' ratios (each round
runs both engines back to back, so a noisy moment slows both sides of a ratio) and
the ratio of each side's best round (the least disturbed). Where valgrind is
installed it also counts the machine instructions a game takes on each side, a
figure no neighbour's load changes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from revision import ROOT, checkout


def random_game(variant: str, players: int, seed: int, chooser: random.Random) -> int:
    """Play the game of ``seed`` to its end by random legal moves; the actions it took."""
    from stacks_api.engine import create_game

    game = create_game(variant, players=players, seed=seed)
    actions = 0
    while game.result is None:
        seat = game.to_move[0]
        game.apply(seat, chooser.choice(game.legal_actions(seat)))
        actions += 1
    return actions


def run(variant: str, players: int, seconds: float) -> tuple[int, int, float]:
    from stacks_api.engine import create_game

    create_game(variant, players=players, seed=0)  # imports done before the clock starts
    chooser = random.Random(2026)
    games = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        actions += random_game(variant, players, games, chooser)
        games += 1
    return games, actions, time.process_time() - start


def rate_in(source: Path, variant: str, players: int, seconds: float) -> float:
    """Games per second of the engine under ``source``, in a fresh interpreter."""
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]);"
        "from engine import run; g, a, t = run(sys.argv[3], int(sys.argv[4]), float(sys.argv[5]));"
        "print(json.dumps(g / t))"
    )
    env = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(
        [sys.executable, "-c", code, str(source), str(ROOT / "bench"), variant, str(players),
         str(seconds)],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    rate: float = json.loads(done.stdout)
    return rate


def play(variant: str, players: int, games: int) -> None:
    """A fixed workload: games of seeds 0 to ``games`` - 1, random legal moves."""
    chooser = random.Random(2026)
    for seed in range(games):
        random_game(variant, players, seed, chooser)


def instructions_in(source: Path, variant: str, players: int, games: int) -> float:
    """Machine instructions a game of the engine under ``source`` takes, counted by
    valgrind (no other load changes them): 2 x ``games`` games less the first
    ``games``, which also pay for the imports and fill what an engine keeps from
    game to game (as the timed runs, thousands of games long, do)."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2]);"
        "from engine import play; play(sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))"
    )
    # Fixed string hashes and, with setarch, no address randomisation: the same
    # count on every run (otherwise it wanders by up to half a percent).
    same_addresses = ["setarch", "-R"] if shutil.which("setarch") else []
    counted = []
    for n in (2 * games, games):
        done = subprocess.run(
            [*same_addresses, "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
             sys.executable, "-c", code, str(source), str(ROOT / "bench"), variant,
             str(players), str(n)],
            env={**os.environ, "PYTHONPATH": str(source), "PYTHONHASHSEED": "0"},
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        counted.append(int(re.search(r"Collected : (\d+)", done.stderr).group(1)))  # type: ignore[union-attr]
    return (counted[0] - counted[1]) / games


def against(revision: str, variants: list[str], players: int, seconds: float, rounds: int) -> None:
    with checkout(revision) as other:
        for variant in variants:
            mine, theirs = [], []
            for _ in range(rounds):
                mine.append(rate_in(ROOT, variant, players, seconds))
                theirs.append(rate_in(other, variant, players, seconds))
            ratio = statistics.median(a / b for a, b in zip(mine, theirs, strict=True))
            shown = " ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(mine, theirs, strict=True))
            print(
                f"{variant:9} {players} players: this tree {statistics.median(mine):7.0f} "
                f"games/s, {revision} {statistics.median(theirs):7.0f} games/s: "
                f"{ratio:.2f}x; best rounds {max(mine):.0f} and {max(theirs):.0f}: "
                f"{max(mine) / max(theirs):.2f}x   (rounds, this/that: {shown})"
            )
            if shutil.which("valgrind"):
                a, b = (instructions_in(tree, variant, players, 20) for tree in (ROOT, other))
                print(
                    f"{variant:9} {players} players: instructions a game (valgrind), this "
                    f"tree {a / 1e6:.2f} M, {revision} {b / 1e6:.2f} M: {b / a:.2f}x fewer"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--variant", choices=["sequence", "stacks", "all"], default="all")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--against", metavar="REV", help="compare with this git revision")
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds with --against")
    args = parser.parse_args()
    variants = ["sequence", "stacks"] if args.variant == "all" else [args.variant]
    if args.against:
        against(args.against, variants, args.players, args.seconds, args.rounds)
        return
    for variant in variants:
        games, actions, elapsed = run(variant, args.players, args.seconds)
        print(
            f"{variant:9} {args.players} players: {games / elapsed:8.0f} games/s  "
            f"{actions / elapsed:9.0f} actions/s  ({actions / games:.0f} actions/game, "
            f"{games} games in {elapsed:.1f}s)"
        )


if __name__ == "__main__":
    main()
