"""Fit the Sequence search's estimate: a logistic model of who wins a position.

    python bench/fit_estimate.py [--games 2000] [--first-seed 10000]

Plays ``--games`` 2-player games of the greedy bot, takes every position after
every move (features of team 0 minus those of team 1, as the estimate computes
them) with whether team 0 went on to win, and fits the weights by Newton's method
(a small L2 penalty keeps it stable). A second set of as many games, on the seeds
that follow, checks the fit. Prints the weights, to be copied into ``WEIGHTS`` in
stacks_api/variants/sequence/bot.py, and the log loss of both sets beside a coin's.
Keep the seeds below 20,000: those above 100,000 are for measuring.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random

from stacks_api import bots
from stacks_api.engine import create_game
from stacks_api.variants.sampling import sigmoid
from stacks_api.variants.sequence import bot

Row = tuple[list[float], float]


def positions(seed: int) -> list[Row]:
    """Every position of one greedy game, with 1.0 if team 0 won (none for a draw)."""
    game, rng = create_game("sequence", players=2, seed=seed), random.Random(seed)
    found: list[list[float]] = []
    while game.result is None:
        seat = game.to_move[0]
        game.apply(seat, bots.choose("easy", game.view(seat), rng))
        if game.result is None:
            board = bot.Board.of_view(game.view(None))
            ours, theirs = bot.features(board, game.hands, 2, game.to_move[0])
            found.append([a - b for a, b in zip(ours, theirs, strict=True)])
    outcome = game.outcome()
    if outcome is None or outcome[0] == outcome[1]:
        return []
    return [(x, outcome[0]) for x in found]


def collect(first: int, games: int) -> list[Row]:
    with multiprocessing.Pool() as pool:
        return [row for rows in pool.map(positions, range(first, first + games)) for row in rows]


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


def fit(rows: list[Row], penalty: float = 1e-3, steps: int = 12) -> list[float]:
    n = len(rows[0][0])
    w = [0.0] * n
    for _ in range(steps):
        grad = [penalty * wi for wi in w]
        hess = [[penalty if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in rows:
            p = sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True)))
            for i in range(n):
                grad[i] += (p - y) * x[i] / len(rows)
                for j in range(i + 1):
                    hess[i][j] += p * (1 - p) * x[i] * x[j] / len(rows)
        for i in range(n):
            for j in range(i):
                hess[j][i] = hess[i][j]
        w = [wi - d for wi, d in zip(w, solve(hess, grad), strict=True)]
    return w


def log_loss(w: list[float], rows: list[Row]) -> float:
    total = 0.0
    for x, y in rows:
        p = min(max(sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True))), 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=10000)
    args = parser.parse_args()
    train = collect(args.first_seed, args.games)
    check = collect(args.first_seed + args.games, args.games)
    w = fit(train)
    print("WEIGHTS = (" + ", ".join(f"{wi:.3f}" for wi in w) + ")")
    print(
        f"log loss: fitted {log_loss(w, train):.3f}, checked {log_loss(w, check):.3f}, "
        f"a coin {math.log(2):.3f} ({len(train)} positions fitted, {len(check)} checked)"
    )


if __name__ == "__main__":
    main()
