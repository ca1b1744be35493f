"""A strength route tried for Sequence: an exact look at the next draw when a side is
about to win, measured against the search as it ships.

    python bench/exact_threat.py [--first-seed 15000] [--seeds 200] [--players 2] [--jobs 2]

Where the seat to move after ours could complete its winning sequence, the search's
sampled worlds estimate how likely each of our moves leaves it that card. Here that
chance is worked out exactly instead: the next seat's hand is a random set of the
cards our seat has not seen (the other hands and the draw pile), so the chance it
holds one of ``k`` winning cards is ``1 - C(U - k, h) / C(U, h)``. If the search's
move leaves a higher chance than the best legal move does, the move with the lowest
chance (the greedy ranking breaks ties) is played instead.

The look consumes no random numbers, so a game where it never overrules the search
plays exactly as the shipped bot's game: only the games where it did are played
again with the shipped bot, and their difference is the whole effect. Each seed is
dealt twice with the seats swapped, against ``medium``. Seeds stay below 20,000.
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
from collections import Counter
from typing import Any

from stacks_api import bots
from stacks_api.bots import ismcts
from stacks_api.engine import create_game
from stacks_api.variants.sequence import bot as heuristic
from stacks_api.variants.sequence.board import LAYOUT, ONE_EYED_JACKS, SIZE, TWO_EYED_JACKS
from stacks_api.variants.sequence.position import EMPTY
from stacks_api.variants.sequence.setup import DECK

View = dict[str, Any]
Action = dict[str, Any]


def winning_cells(board: heuristic.Board, team: int, needed: int) -> set[int]:
    """Empty cells where a chip of ``team`` would complete the sequence it still lacks."""
    if sum(t == team for t, _ in board.sequences) < needed - 1:
        return set()
    spent = board.reused.get(team, ())
    cells = set()
    for w in board.fours:
        owner, held = board.holders[w]
        if owner == team and held == 4 and w not in spent:
            cells.update(c for c in heuristic.WINDOWS[w] if board.cells[c] == EMPTY)
    return cells


def threat(view: View, now: heuristic.Board, unseen: Counter[str], action: Action) -> float:
    """The exact chance that the next seat can win at once after our ``action`` on the
    board ``now`` (-1 where our action wins); ``unseen`` are the cards our seat has
    not seen."""
    board, me = now.copy(), view["you"]["seat"]
    teams, seats = view["options"]["teams"], len(view["players"])
    needed = view["options"]["sequences_to_win"]
    if action["type"] == "play":
        row, col = action["cell"]
        cell, removed = row * SIZE + col, action["card"] in ONE_EYED_JACKS
        if not removed and cell in winning_cells(board, me % teams, needed):
            return -1.0
        board.set(cell, EMPTY if removed else me % teams)
    nxt = (me + 1) % seats
    cells = winning_cells(board, nxt % teams, needed)
    if not cells:
        return 0.0
    wanted = {LAYOUT[c] for c in cells} | set(TWO_EYED_JACKS)
    k, total = sum(unseen[c] for c in wanted), sum(unseen.values())
    h = view["players"][nxt]["hand_size"]
    return 1.0 - math.comb(total - k, h) / math.comb(total, h)


def looked(view: View, rng: random.Random, fired: list[int]) -> Action:
    """The shipped search's move, overruled where the exact look finds a safer one."""
    action = ismcts.tree_bot(view, rng)
    me, teams = view["you"]["seat"], view["options"]["teams"]
    nxt = (me + 1) % len(view["players"])
    now = heuristic.Board.of_view(view)
    if not winning_cells(now, nxt % teams, view["options"]["sequences_to_win"]):
        return action  # no move of ours makes a threat: there is none to answer
    seen = Counter([*view["you"]["hand"], *(c for pile in view["discards"] for c in pile)])
    unseen = Counter(DECK) - seen
    legal = list({ismcts.action_key(a): a for a in view["you"]["legal_actions"]}.values())
    chances = {ismcts.action_key(a): threat(view, now, unseen, a) for a in legal}
    low = min(chances.values())
    if chances[ismcts.action_key(action)] <= low + 1e-9:
        return action
    rank = heuristic.rank(view)
    safest = [a for a in legal if chances[ismcts.action_key(a)] <= low + 1e-9]
    fired.append(1)
    return max(safest, key=rank)


def play(job: tuple[int, int, int, bool]) -> tuple[int, int, float, int]:
    """(seed, seat of strong, strong's points, overrules) of one game."""
    seed, strong_seat, players, look = job
    game, rng, fired = create_game("sequence", players=players, seed=seed), random.Random(seed), []
    while game.result is None:
        seat = game.to_move[0]
        view = game.view(seat)
        if seat % 2 == strong_seat % 2:
            action = looked(view, rng, fired) if look else ismcts.tree_bot(view, rng)
        else:
            action = bots.choose("medium", view, rng)
        game.apply(seat, action)
    outcome = game.outcome()
    points = outcome[strong_seat] if outcome else 0.5
    return seed, strong_seat, points, len(fired)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-seed", type=int, default=15_000)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    assert args.first_seed + args.seeds <= 20_000, "tuning seeds only"
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    jobs = [(s, seat, args.players, True) for s in seeds for seat in (0, 1)]
    with multiprocessing.Pool(args.jobs) as pool:
        with_look = pool.map(play, jobs)
        again = [(s, seat, args.players, False) for s, seat, _, n in with_look if n]
        shipped = {(s, seat): p for s, seat, p, _ in pool.map(play, again)}
    decisions = sum(n for *_, n in with_look)
    per_seed: dict[int, float] = {}
    for s, seat, points, _ in with_look:
        base = shipped.get((s, seat), points)
        per_seed[s] = per_seed.get(s, 0.0) + 100 * (points - base) / 2
    diffs = list(per_seed.values())
    se = statistics.stdev(diffs) / math.sqrt(len(diffs))
    total = sum(p for _, _, p, _ in with_look)
    print(f"{len(jobs)} games ({args.players} players, seeds {args.first_seed}-"
          f"{args.first_seed + args.seeds - 1}, each dealt twice): the look overruled the "
          f"search {decisions} times in {len(again)} games; with it {total:.1f} points "
          f"({total / len(jobs):.1%}); per seed {statistics.mean(diffs):+.2f} points "
          f"against the shipped search (se {se:.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
