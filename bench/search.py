"""The tree search's speed: iterations per CPU second, one core.

    python bench/search.py [--positions 12] [--iterations 300] [--variant sequence|stacks|all]

Positions come from seeded games of the greedy bot (every sixth decision of a seat
from the eighth on, so they are mid-game and comparable between runs). Each is
searched with a budget of ``--iterations`` and no time cap worth the name. Time is
the process's CPU time. The same run also measures a reference that the search does
not touch: greedy decisions per CPU second on the same positions. The figure to
compare between revisions or machines is the ratio of the two (iterations per
greedy decision's time), since a machine's speed moves both.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from stacks_api import bots
from stacks_api.bots import ismcts
from stacks_api.engine import create_game
from stacks_api.variants import get

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
            game.apply(seat, bots.choose("easy", view, rng))
        seed += 1
    return views


def cpu(work: Any) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def measure(variant: str, count: int, iterations: int) -> None:
    views = positions(variant, count)
    budget = ismcts.Budget(iterations=iterations, seconds=3600)
    branching = get(variant).bots.tuning.branching

    def search_all() -> None:
        for n, view in enumerate(views):
            ismcts.search(view, random.Random(n), budget, branching)

    def greedy_all() -> None:
        for _ in range(50):
            for n, view in enumerate(views):
                bots.choose("easy", view, random.Random(n))

    searched = cpu(search_all)
    greedy = cpu(greedy_all)
    per_second = count * iterations / searched
    greedy_per_second = 50 * count / greedy
    print(
        f"{variant:9} {per_second:9.0f} iterations/s   greedy {greedy_per_second:8.0f} decisions/s"
        f"   ratio {per_second / greedy_per_second:.3f} iterations per greedy decision"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="all")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=300)
    args = parser.parse_args()
    names = ["sequence", "stacks"] if args.variant == "all" else [args.variant]
    for name in names:
        measure(name, args.positions, args.iterations)


if __name__ == "__main__":
    main()
