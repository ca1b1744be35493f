"""Tune the tree search's parameters automatically, on tuning seeds only.

    python bench/tune.py [--variant sequence] [--configs 6] [--seeds 20 40 100]
                         [--first-seed 14000] [--jobs 2] [--random-seed 1]

A race (successive halving): ``--configs`` settings drawn at random from the
ranges below, and the shipped one, each play ``strong`` against ``medium`` on
the same deals: every seed dealt twice with the seats swapped, so both seatings
draw the same cards (in Sequence a pair varies about 0.6 times as much as two
independent games). After each stage the better half goes on to the next stage's
fresh seeds, the shipped setting always among them; scores add up over the
stages. Each line gives a setting's points, and its difference from the shipped
setting per seed (a draw counts half) with the standard error of that paired
difference: only a difference of more than about two standard errors is worth
a run on fresh seeds (above 3,000,000).

Seeds stay below 20,000: the bots are tuned there and measured elsewhere. The
race's winner is then measured once on a fresh range, beside the shipped setting
on the same deals:

    python bench/tune.py --measure exploration=0.032 bias=0.961 widening=1.15 \
                         --first-seed 3300000 --seeds 100
"""

from __future__ import annotations

import sys
from pathlib import Path

if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.append(sys.path.pop(0))

import argparse
import math
import multiprocessing
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from stacks_api.competition.bot_matches import Match, play_here

LAST_TUNING_SEED = 19_999
FIRST_FRESH_SEED = 3_000_000  # never tuned on
# What the race varies, with each range: a Budget field, low, high, on a log scale?
RANGES = (
    ("exploration", 0.03, 0.5, True),
    ("bias", 0.1, 1.5, True),
    ("widening", 0.5, 2.0, False),
)


@dataclass
class Entry:
    """One setting in the race, and its points per seed (both seatings, 0 to 1)."""

    options: dict[str, float]
    points: dict[int, float] = field(default_factory=dict)

    def label(self) -> str:
        return ", ".join(f"{k} {v:.3g}" for k, v in self.options.items()) or "shipped"


def draw_setting(rng: random.Random) -> dict[str, float]:
    setting = {}
    for name, low, high, log in RANGES:
        if log:
            value = math.exp(rng.uniform(math.log(low), math.log(high)))
        else:
            value = rng.uniform(low, high)
        setting[name] = round(value, 3)
    return setting


def play_stage(pool: Any, variant: str, entries: list[Entry], seeds: range) -> None:
    """Each entry plays every seed of ``seeds`` twice, seats swapped."""
    matches, owners = [], []
    for entry in entries:
        for seed in seeds:
            for names in (("strong", "medium"), ("medium", "strong")):
                matches.append(Match(variant, names, seed, {"strong": entry.options}))
                owners.append((entry, seed))
    for (entry, seed), (winner, _) in zip(owners, pool.imap(play_here, matches), strict=True):
        won = 1.0 if winner == "strong" else 0.5 if winner is None else 0.0
        entry.points[seed] = entry.points.get(seed, 0.0) + won / 2


def against(entry: Entry, shipped: Entry) -> tuple[float, float]:
    """Mean per-seed difference from the shipped setting, in points of the win rate,
    and its standard error."""
    diffs = [100 * (entry.points[s] - shipped.points[s]) for s in entry.points]
    if len(diffs) < 2:
        return 0.0, math.inf
    return statistics.mean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def report(entries: list[Entry], shipped: Entry) -> None:
    for entry in sorted(entries, key=lambda e: -sum(e.points.values())):
        seeds = len(entry.points)
        share = sum(entry.points.values()) / seeds
        diff, se = against(entry, shipped)
        print(f"  {entry.label():48} {2 * seeds:4d} games  {share:6.1%}  "
              f"per seed {diff:+5.1f} (se {se:.1f})", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="sequence")
    parser.add_argument("--configs", type=int, default=6)
    parser.add_argument("--seeds", type=int, nargs="+", default=[20, 40, 100],
                        help="fresh seeds each stage plays (each dealt twice)")  # fmt: skip
    parser.add_argument("--first-seed", type=int, default=14_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--random-seed", type=int, default=1)
    parser.add_argument("--measure", nargs="+", metavar="NAME=VALUE",
                        help="this setting beside the shipped one, on fresh seeds")  # fmt: skip
    args = parser.parse_args()
    shipped = Entry({})
    if args.measure:
        if args.first_seed < FIRST_FRESH_SEED:
            parser.error(f"a measurement takes fresh seeds, from {FIRST_FRESH_SEED:,}")
        setting = {k: float(v) for k, v in (item.split("=") for item in args.measure)}
        entries = [shipped, Entry(setting)]
        args.seeds = args.seeds[:1]
    elif args.first_seed + sum(args.seeds) - 1 > LAST_TUNING_SEED:
        parser.error(f"tuning seeds stop at {LAST_TUNING_SEED}")
    else:
        rng = random.Random(args.random_seed)
        entries = [shipped, *(Entry(draw_setting(rng)) for _ in range(args.configs))]
    seed = args.first_seed
    with multiprocessing.Pool(args.jobs) as pool:
        for stage, count in enumerate(args.seeds, 1):
            started = time.perf_counter()
            play_stage(pool, args.variant, entries, range(seed, seed + count))
            print(f"stage {stage}: seeds {seed}-{seed + count - 1}, "
                  f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
            report(entries, shipped)
            seed += count
            others = sorted(entries[1:], key=lambda e: -sum(e.points.values()))
            entries = [shipped, *others[: max(1, len(others) // 2)]]


if __name__ == "__main__":
    main()
