"""Bot against bot: seeded games, seats swapped every other game, with win rates.

stacks-api tournament --variant NAME --bots greedy random --games 200

Games are played here through the engine, or, with a server's URL, by that
server's own bots through the HTTP API (the same seeds give the same deals).
"""

from __future__ import annotations

import math
import multiprocessing
import random
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from .. import bots
from ..client import Client
from ..engine import create_game
from ..rules.base import seat_scores


@dataclass
class Standing:
    """One bot's results: wins, and how long each of its decisions took."""

    name: str
    wins: int = 0
    times: list[float] = field(default_factory=list)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


# A turn may go on as long as the player likes in some variants (cards can be drawn
# again and again), so a bot that never ends its turn must not hang a tournament.
MAX_ACTIONS = 50_000


def play_one(
    variant: str,
    names: list[str],
    seed: int,
    standings: dict[str, Standing],
    options: dict[str, dict[str, Any]] | None = None,
) -> str | None:
    """Play one game; returns the winning bot's name (None for a draw or an endless game)."""
    options = options or {}
    game = create_game(variant, players=len(names), seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if game.result is not None:
            break
        seat = game.to_move[0]
        view = game.view(seat)
        start = time.perf_counter()
        action = bots.choose(names[seat], view, rng, options.get(names[seat]))
        standings[names[seat]].times.append(time.perf_counter() - start)
        game.apply(seat, action)
    return _winner(names, game.outcome())


def play_remote(
    api: Client, variant: str, names: list[str], seed: int, options: dict[str, dict[str, Any]]
) -> str | None:
    """Play one game on a server, by its bots; returns the winning bot's name."""
    seats = [{"bot": name, "options": options.get(name, {})} for name in names]
    game = api.create(variant, len(names), seats=seats, seed=seed)
    view = game
    while view["status"] == "active" or view["status"] == "waiting":
        view = api.view(game["id"], wait=10)
    if not view["result"]:
        return None
    teams = [p.get("team") for p in view["players"]]
    return _winner(names, seat_scores(view["result"], len(names), teams.__getitem__))


def _winner(names: list[str], outcome: list[float] | None) -> str | None:
    """The name of the bot that won, or None for a draw or an unfinished game. A bot
    that sits alone wins when its team does, whoever of the team moved last."""
    if outcome is None or 1.0 not in outcome:
        return None
    seats_of = Counter(names)
    for seat, name in enumerate(names):
        if seats_of[name] == 1 and outcome[seat] == 1.0:
            return name
    return names[outcome.index(1.0)]


def line_up(first: str, second: str, players: int, seed: int, alone: bool = False) -> list[str]:
    """Seats alternate between the two bots, and the whole line-up swaps every game; or,
    ``alone``, ``first`` takes one seat (a different one from game to game) and
    ``second`` all the others."""
    if alone:
        return [first if s == seed % players else second for s in range(players)]
    return [first if (s + seed) % 2 == 0 else second for s in range(players)]


@dataclass(frozen=True)
class Match:
    """One game to play here, in this process or another (``jobs``)."""

    variant: str
    names: tuple[str, ...]
    seed: int
    options: dict[str, dict[str, Any]]


Played = tuple[str | None, dict[str, list[float]]]  # the winner, each bot's decision times


def play_here(match: Match) -> Played:
    standings = {name: Standing(name) for name in set(match.names)}
    winner = play_one(match.variant, list(match.names), match.seed, standings, match.options)
    return winner, {name: standing.times for name, standing in standings.items()}


def run(
    variant: str,
    first: str,
    second: str,
    games: int,
    players: int = 2,
    first_seed: int = 0,
    options: dict[str, dict[str, Any]] | None = None,
    url: str | None = None,
    progress: bool = False,
    jobs: int = 1,
    alone: bool = False,
) -> str:
    """Play ``games`` games (seeds from ``first_seed``) and return the report.

    With ``url``, the server there plays them; else ``jobs`` processes play them
    here, a game each at a time. ``progress`` shows a bar with the running score.
    ``alone`` seats ``first`` once against ``players - 1`` of ``second``.
    """
    options = options or {}
    standings = {name: Standing(name) for name in (first, second)}
    draws = 0
    api = None if url is None else Client(url, retries=5)
    bar = tqdm(total=games, disable=not progress, unit="game", leave=False)
    seeds = range(first_seed, first_seed + games)
    matches = [
        Match(variant, tuple(line_up(first, second, players, n, alone)), n, options) for n in seeds
    ]
    pool = multiprocessing.Pool(jobs) if api is None and jobs > 1 else None
    results: Iterator[Played]
    if api is not None:  # the server's bots decide, untimed here
        results = ((play_remote(api, variant, list(m.names), m.seed, options), {}) for m in matches)
    else:
        results = pool.imap(play_here, matches) if pool else map(play_here, matches)
    for winner, times in results:
        for name, taken in times.items():
            standings[name].times += taken
        if winner is None:
            draws += 1
        else:
            standings[winner].wins += 1
        bar.update()
        bar.set_postfix_str(
            f"{first} {standings[first].wins} - {standings[second].wins} {second}, draws {draws}"
        )
    bar.close()
    if pool is not None:
        pool.close()
    where = "here" if url is None else f"by the server at {url}"
    lines = [
        f"{variant}, {players} players, {games} games (seeds {first_seed}-"
        f"{first_seed + games - 1}) played {where} ({jobs} process{'es' if jobs > 1 else ''}), "
        + (
            f"{first} in one seat, moved round every game, "
            if alone
            else "seats swapped every game, "
        )
        + f"options {options}"
    ]
    for standing in standings.values():
        low, high = wilson(standing.wins, games)
        line = (
            f"  {standing.name:8} wins {standing.wins:4d} ({standing.wins / games:6.1%}, "
            f"95% CI {low:.1%}-{high:.1%})"
        )
        if standing.times:  # decisions are timed only when they are made here
            ms = [t * 1000 for t in sorted(standing.times)]
            line += (
                f"   decision median {statistics.median(ms):7.2f} ms,"
                f" mean {statistics.mean(ms):7.2f} ms, p99 {ms[int(0.99 * len(ms))]:7.2f} ms,"
                f" max {ms[-1]:7.2f} ms"
            )
        lines.append(line)
    lines.append(f"  draws    {draws:4d}")
    if alone:
        lines.append(f"  fair share of {first}'s seat: {1 / sides(variant, players):.1%}")
    return "\n".join(lines)


def sides(variant: str, players: int) -> int:
    """How many sides (teams, or players where there are none) a game has."""
    view = create_game(variant, players=players, seed=0).view(None)
    return len({p.get("team", p["seat"]) for p in view["players"]})
