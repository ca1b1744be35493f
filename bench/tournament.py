"""How long a swiss round and an arena pass take to pair, for 1,000 beside 100.

    python bench/tournament.py [--rounds 7] [--seed 1]

Plays a swiss of --rounds rounds for each field size with random results (wins,
losses and draws; an odd field has byes), timing each round's pairing
(``stacks_api.competition.swiss.pair``, CPU time) once the rounds before it are played:
the later rounds, where players of equal score have met, are the hard ones.
Then times an arena's pass over that many free players, each with a last
opponent among them (``stacks_api.competition.arena.pair_free``). Prints each size's median
and slowest, and the ratio of 1,000 to 100.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from stacks_api.competition.arena import pair_free
from stacks_api.competition.swiss import Entrant, pair


def swiss(count: int, rounds: int, seed: int) -> list[float]:
    """The CPU seconds each round's pairing took."""
    rng = random.Random(seed)
    entrants = [Entrant(f"p{i:04}", rating=rng.gauss(1500, 300)) for i in range(count)]
    by_id = {e.id: e for e in entrants}
    took = []
    for _ in range(rounds):
        start = time.process_time()
        made = pair(entrants)
        took.append(time.process_time() - start)
        for table in made.tables:
            a, b = (by_id[entry] for entry in table.seats)
            points = rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
            for seat, (me, other, scored) in enumerate(((a, b, points[0]), (b, a, points[1]))):
                me.met.add(other.id)
                me.seats.append(seat)
                me.points += scored
        for entry in made.byes:
            by_id[entry].byes += 1
            by_id[entry].points += 1.0
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    medians = {}
    for count in (100, 101, 1000, 1001):
        took = swiss(count, args.rounds, args.seed)
        medians[count] = statistics.median(took)
        slowest = 1000 * max(took)
        print(f"{count:5} entrants: a round paired in {1000 * medians[count]:7.1f} ms at the "
              f"median, {slowest:7.1f} ms at the slowest ({args.rounds} rounds)")  # fmt: skip
    print(f"1,000 / 100: {medians[1000] / medians[100]:.1f}x the time (goal: a round of 1,000 "
          "within 1 s)")  # fmt: skip
    passes = {count: arena_pass(count, args.seed) for count in (100, 1000)}
    for count, took in passes.items():
        print(f"{count:5} free arena players: a pass in {1000 * statistics.median(took):7.2f} ms "
              f"at the median, {1000 * max(took):7.2f} ms at the slowest")  # fmt: skip
    ratio = statistics.median(passes[1000]) / statistics.median(passes[100])
    print(f"1,000 / 100: {ratio:.1f}x the time (goal: a pass over 1,000 within 200 ms)")


def arena_pass(count: int, seed: int, passes: int = 20) -> list[float]:
    """The CPU seconds of ``passes`` arena passes over ``count`` free players with
    arena points and last opponents."""
    rng = random.Random(seed)
    free = [Entrant(f"p{i:04}", rating=rng.gauss(1500, 300), points=rng.randrange(0, 30))
            for i in range(count)]  # fmt: skip
    ids = [e.id for e in free]
    rng.shuffle(ids)
    last = {a: b for a, b in zip(ids[::2], ids[1::2], strict=False)}
    last.update({b: a for a, b in last.items()})
    took = []
    for _ in range(passes):
        start = time.process_time()
        pair_free(free, last)
        took.append(time.process_time() - start)
    return took


if __name__ == "__main__":
    main()
