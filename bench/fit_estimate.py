"""Fit the Sequence search's estimate: a logistic model of who wins a position.

    python bench/fit_estimate.py [--games 8000] [--check 2000] [--first-seed 10000]
                                 [--continuations 24]

Plays 2-player games of the greedy bot and stops each at three random moves. Each
of those positions is valued by playing it on ``--continuations`` times with the
greedy bot, the draw pile shuffled anew each time: the share of those games the
side to move won (a draw counting half). That value is far less noisy than the one
outcome of the game the position came from, so the fit can tell apart features
whose effects are small. The features are the side to move's minus the other
side's, as ``features`` computes them; the weights are fitted by Newton's method
(a small L2 penalty keeps it stable) to the values as soft labels.

Games of the ``--check`` seeds that follow check the fit. Prints the weights, to be
copied into ``WEIGHTS`` in stacks_api/variants/sequence/bot.py, and for the checked
positions the cross-entropy of the fit, of the weights in the code now, of a
constant, and of the values themselves (the floor no model can go below). Keep the
seeds below 20,000: those above 100,000 are for measuring.
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import random

from stacks_api.engine import create_game
from stacks_api.variants.sampling import sigmoid
from stacks_api.variants.sequence import bot

Row = tuple[list[float], float]
STOPS_PER_GAME = 3


def positions(seed: int, continuations: int) -> list[Row]:
    """Three positions of one greedy game, each with the features of the side to move
    minus the other side's and the share of greedy continuations that side won."""
    game, rng = create_game("sequence", players=2, seed=seed), random.Random(seed)
    run = bot.Playout(game)
    rows, moves = [], 0
    for stop in sorted(rng.sample(range(1, 70), STOPS_PER_GAME)):
        while game.result is None and moves < stop:
            run.move(rng)
            moves += 1
        if game.result is not None:
            break
        mover = game.to_move[0]
        per_team = bot.features(run.board, game.hands, 2, mover)
        ours, theirs = per_team[mover % 2], per_team[1 - mover % 2]
        won = 0.0
        for _ in range(continuations):
            fork = run.fork()
            rng.shuffle(fork.game.draw)
            while fork.game.result is None:
                fork.move(rng)
            won += fork.game.outcome()[mover]
        rows.append(([a - b for a, b in zip(ours, theirs, strict=True)], won / continuations))
    return rows


def collect(first: int, games: int, continuations: int) -> list[Row]:
    task = functools.partial(positions, continuations=continuations)
    with multiprocessing.Pool() as pool:
        found = pool.imap(task, range(first, first + games), chunksize=20)
        return [row for rows in found for row in rows]


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix`` x = ``vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [[*row, b] for row, b in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit(rows: list[Row], penalty: float = 1e-3, steps: int = 8) -> list[float]:
    n = len(rows[0][0])
    w = [0.0] * n
    for _ in range(steps):
        grad = [penalty * wi for wi in w]
        hess = [[penalty if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in rows:
            p = sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True)))
            weight, error = p * (1 - p) / len(rows), (p - y) / len(rows)
            nonzero = [(i, xi) for i, xi in enumerate(x) if xi]
            for i, xi in nonzero:
                grad[i] += error * xi
                row = hess[i]
                for j, xj in nonzero:
                    row[j] += weight * xi * xj
        w = [wi - d for wi, d in zip(w, solve(hess, grad), strict=True)]
    return w


def cross_entropy(chances: list[float], rows: list[Row]) -> float:
    total = 0.0
    for p, (_, y) in zip(chances, rows, strict=True):
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def chances(w: list[float] | tuple[float, ...], rows: list[Row]) -> list[float]:
    return [sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True))) for x, _ in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--check", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=10000)
    parser.add_argument("--continuations", type=int, default=24)
    args = parser.parse_args()
    train = collect(args.first_seed, args.games, args.continuations)
    check = collect(args.first_seed + args.games, args.check, args.continuations)
    w = fit(train)
    print("WEIGHTS = (" + ", ".join(f"{wi:.3f}" for wi in w) + ")")
    mean = sum(y for _, y in train) / len(train)
    print(
        f"cross-entropy on {len(check)} checked positions ({len(train)} fitted): "
        f"the fit {cross_entropy(chances(w, check), check):.4f}, "
        f"the weights now {cross_entropy(chances(bot.WEIGHTS, check), check):.4f}, "
        f"a constant {cross_entropy([mean] * len(check), check):.4f}, "
        f"the values themselves {cross_entropy([y for _, y in check], check):.4f}"
    )


if __name__ == "__main__":
    main()
