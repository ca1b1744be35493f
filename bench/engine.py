"""Random games through the engine façade: games and actions per second, one core.

    python bench/engine.py [--seconds 5] [--variant sequence|stacks|all] [--players 2]

Each step is what any client does: ``legal_actions`` for the seat to move, then
``apply`` of a uniformly random choice (fixed seeds, so runs are comparable).
"""

from __future__ import annotations

import argparse
import random
import time

from stacks_api.engine import VARIANTS, create_game


def run(variant: str, players: int, seconds: float) -> tuple[int, int, float]:
    chooser = random.Random(2026)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = create_game(variant, players=players, seed=games)
        while game.result is None:
            seat = game.to_move[0]
            game.apply(seat, chooser.choice(game.legal_actions(seat)))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--variant", choices=[*VARIANTS, "all"], default="all")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    variants = list(VARIANTS) if args.variant == "all" else [args.variant]
    for variant in variants:
        games, actions, elapsed = run(variant, args.players, args.seconds)
        print(
            f"{variant:9} {args.players} players: {games / elapsed:8.0f} games/s  "
            f"{actions / elapsed:9.0f} actions/s  ({actions / games:.0f} actions/game, "
            f"{games} games in {elapsed:.1f}s)"
        )


if __name__ == "__main__":
    main()
