"""How good a (sampled) game state is for each seat, from 0 (lost) to 1 (won).

Used where a search stops before the game ends.
"""

from __future__ import annotations

import math

from ..engine import Game
from ..engine.sequence.game import SequenceGame
from .sequence_greedy import Board

# Window value by chips held, for the evaluation (a four is a threat of a sequence).
WINDOW = (0, 1, 3, 9, 27, 0)
SEQUENCE = 120


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, x))))


def sequence_scores(game: SequenceGame, board: Board) -> list[float]:
    """Per seat: its team's sequences and open windows (who holds them is read off
    ``board``, the game's) against the best other team's."""
    teams = game.setup.teams
    value = [0.0] * teams
    for team, _ in game.sequences:
        value[team] += SEQUENCE
    for owner, held in board.holders:
        if owner >= 0:
            value[owner] += WINDOW[held]
    per_team = []
    for team in range(teams):
        best_other = max(value[t] for t in range(teams) if t != team)
        per_team.append(_sigmoid((value[team] - best_other) / 40))
    return [per_team[seat % teams] for seat in range(game.players)]


def _steps_to_win(chips: dict[str, int]) -> int:
    short = max(0, 2 - chips["blue"]) + max(0, 2 - chips["red"])
    return max(short, 5 - chips["blue"] - chips["red"])


def stacks_scores(game: Game) -> list[float]:
    """Per seat: how many chips it lacks compared with its closest rival, then how
    many chips it holds (the next steal or colour swap can turn those into steps)."""
    chips = game.chips  # type: ignore[attr-defined]
    steps = [_steps_to_win(c) for c in chips]
    held = [c["blue"] + c["red"] for c in chips]
    scores = []
    for seat, mine in enumerate(steps):
        rival = min(range(len(steps)), key=lambda i: (steps[i], -held[i]) if i != seat else (99, 0))
        scores.append(_sigmoid(steps[rival] - mine + 0.2 * (held[seat] - held[rival])))
    return scores


def scores(game: Game, board: Board | None = None) -> list[float]:
    """Per seat, 1 for a win, 0 for a loss, 0.5 for a draw, else the heuristic
    (Sequence: on ``board`` when the caller keeps one up to date)."""
    result = game.result
    if result is not None:
        if "draw" in result:
            return [0.5] * game.players
        if "winner_seat" in result:
            return [1.0 if s == result["winner_seat"] else 0.0 for s in range(game.players)]
        teams = game.setup.teams
        return [1.0 if s % teams == result["winner_team"] else 0.0 for s in range(game.players)]
    if isinstance(game, SequenceGame):
        return sequence_scores(game, board or Board.of_game(game))
    return stacks_scores(game)
