"""The bot ladder measured: each level against the one below it, seats swapped.

    python bench/ladder.py [--games 400] [--table-games 200] [--jobs 2]

Seeds from 3,000,000 (the levels were tuned on seeds below 20,000): every
adjacent pair of levels plays ``--games`` 2-player games of each variant and
``--table-games`` 4-player games (two seats each, alternating: Sequence's teams
of two, Stacks' four players each for themselves), and ``strong`` plays
``medium`` as the earlier figures did. Prints each upper level's share of the
games' wins (a draw counts half) with its Wilson 95% interval, as a table for
docs/bots.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import itertools
import multiprocessing
import time

from stacks_api.bots import LADDER
from stacks_api.competition.bot_matches import Match, line_up, play_here, wilson

FIRST_SEED = 3_000_000


def measure(pool: multiprocessing.pool.Pool, variant: str, low: str, high: str, players: int,
            games: int, first_seed: int) -> str:  # fmt: skip
    matches = [Match(variant, tuple(line_up(high, low, players, n)), n, {})
               for n in range(first_seed, first_seed + games)]  # fmt: skip
    started = time.perf_counter()
    results = list(pool.imap(play_here, matches))
    took = time.perf_counter() - started
    won = sum(1.0 if w == high else 0.5 if w is None else 0.0 for w, _ in results)
    lo, hi = wilson(round(won), games)
    verdict = "separated" if lo > 0.5 else "NOT separated"
    return (f"| {variant} | {players} | {high} vs {low} | {games} | {won / games:.1%} | "
            f"{lo:.1%}-{hi:.1%} | {verdict} | {took:.0f} s |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--table-games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variants", nargs="+", default=["sequence", "stacks"])
    parser.add_argument("--skip", nargs="*", default=[], metavar="VARIANT:PLAYERS:LEVEL",
                        help="pairs to leave out: sequence:2:strong is medium-strong")  # fmt: skip
    args = parser.parse_args()
    print("| game | players | pair | games | upper's wins | Wilson 95% | | time |")
    print("|---|---|---|---|---|---|---|---|")
    seed = FIRST_SEED
    with multiprocessing.Pool(args.jobs) as pool:
        for variant in args.variants:
            for players, games in ((2, args.games), (4, args.table_games)):
                for low, high in itertools.pairwise(LADDER):
                    if f"{variant}:{players}:{high}" not in args.skip:
                        print(measure(pool, variant, low, high, players, games, seed), flush=True)
                    seed += games


if __name__ == "__main__":
    main()
