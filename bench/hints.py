"""How long a hint takes to compute, beside the strong bot's own decision.

    python bench/hints.py [--games 6] [--every 3]

Plays 2-player games of each variant between ``medium`` bots on seeds from
3,000,000 and, every ``--every`` moves, times on the same view the hint (the
strong budget in iterations, what a worker computes) and the ``strong`` bot's
decision. Prints p50/p99 of each, one process, nothing else running.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import random
import statistics
import time

from stacks_api import bots
from stacks_api.bots.hints import hint
from stacks_api.engine import create_game

FIRST_SEED = 3_000_000


def quantile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--every", type=int, default=3)
    args = parser.parse_args()
    for variant in ("sequence", "stacks"):
        hints: list[float] = []
        decisions: list[float] = []
        for n in range(args.games):
            game = create_game(variant, players=2, seed=FIRST_SEED + n)
            rng = random.Random(n)
            for move in range(400):
                if game.result is not None:
                    break
                seat = game.to_move[0]
                view = game.view(seat)
                if move % args.every == 0 and len(view["you"]["legal_actions"]) > 1:
                    start = time.perf_counter()
                    hint(view, random.Random(move))
                    hints.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    bots.choose("strong", view, random.Random(move))
                    decisions.append(time.perf_counter() - start)
                game.apply(seat, bots.choose("medium", view, rng))
        ratio = statistics.mean(hints) / statistics.mean(decisions)
        print(f"{variant}: {len(hints)} hints, p50 {quantile(hints, 0.5):.0f} ms, p99 "
              f"{quantile(hints, 0.99):.0f} ms; the strong bot's decision on the same views "
              f"p50 {quantile(decisions, 0.5):.0f} ms, p99 {quantile(decisions, 0.99):.0f} ms "
              f"(mean ratio {ratio:.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
