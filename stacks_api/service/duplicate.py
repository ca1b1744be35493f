"""What duplicate play needs around the engine: the deal a round shares, what a
table's comparison reads from its ended game, and a duplicate event's standings
and comparison tables (``stacks_api.competition.duplicate`` scores them).

Every table of a round is dealt from the round's server seed, committed when the
event is made, and one entropy mixed from every entrant's (each person may give
some when entering): the same seed and the same entropy at every seat give every
table the same deck order and the same first player, and a record's fairness
block proves it like any other game's (``commit-reveal-v2``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..competition.duplicate import Held, Scored, round_table, standings
from ..engine import Game
from ..model.events import Event
from ..model.fairness import SCHEME, commitment, mixed_entropy
from ..model.record import JSON, Fairness
from ..model.tournaments import Entry, Tournament

TURNS = frozenset({"play", "exchange", "pass", "discard"})  # a side's turn (not an answer)


def round_fairness(seed: str, entries: Iterable[Entry], players: int) -> Fairness:
    """A round's deal, as each of its games records it: the round's seed, no dealer
    fixed (the seed chooses the first player), the mixed entropy at every seat."""
    entropy = mixed_entropy([e.entropy for e in entries])
    return Fairness(SCHEME, commitment(seed, None), seed, (entropy,) * players)


def turns(events: Iterable[Event]) -> int:
    """The turns the game's sides took, both sides' (by versions with a move)."""
    return len({e["version"] for e in events if e["type"] in TURNS})


def progress(game: Game, seat: int) -> int:
    """What the seat's side had achieved at the end: sequences made in Sequence,
    chips collected in Stacks."""
    made = getattr(game, "sequences", None)
    if made is not None:  # the board game: lines of five, owned by a team
        team = game.team_of(seat)
        return sum(1 for owner, _ in made if owner == team)
    chips = getattr(game, "chips", None)
    return sum(chips[seat].values()) if chips else 0


def table_detail(game: Game, events: list[Event]) -> JSON:
    """A duplicate table's comparison, read from its ended game."""
    return {"turns": turns(events), "progress": [progress(game, s) for s in range(game.players)]}


def comparisons(tournament: Tournament) -> dict[int, dict[int, list[Scored]]]:
    """Each round's comparison whose every game has ended: per seat, best first."""
    found = {}
    for number in range(1, tournament.round + 1):
        if not tournament.round_over(number):
            continue
        held = []
        for table in tournament.tables:
            if table.round != number or table.bye or table.points is None:
                continue
            detail = table.detail or {"turns": 0, "progress": [0] * len(table.seats)}
            held += [Held(entry, table.board, seat, table.points[seat], detail["turns"],
                          detail["progress"][seat])
                     for seat, entry in enumerate(table.seats)]  # fmt: skip
        found[number] = round_table(held)
    return found


def shown_rounds(tournament: Tournament) -> list[JSON]:
    """Each round as a duplicate event shows it: the commitment to its deal from the
    start; once its last game has ended, its seed, entropy and comparison table
    (who held which seat, their result and matchpoints)."""
    done = comparisons(tournament)
    names = {e.entry: e.name for e in tournament.entries}
    entropy = mixed_entropy([e.entropy for e in tournament.entries])
    rounds = []
    for number, seed in enumerate(tournament.seeds, start=1):
        shown: JSON = {"round": number, "commitment": commitment(seed, None),
                       "over": number in done}  # fmt: skip
        if number in done:
            games = {(t.board): t.game_id for t in tournament.tables if t.round == number}
            shown.update(server_seed=seed, entropy=entropy, comparison=[
                {"seat": seat, "results": [
                    {"entry": s.held.entry, "name": names.get(s.held.entry, ""),
                     "board": s.held.board, "game_id": games.get(s.held.board),
                     "score": s.held.score, "turns": s.held.turns,
                     "progress": s.held.progress, "matchpoints": s.matchpoints, "top": s.top}
                    for s in group]}
                for seat, group in done[number].items()
            ])  # fmt: skip
        rounds.append(shown)
    return rounds


def duplicate_standings(tournament: Tournament) -> list[JSON]:
    """The standings of a duplicate event: matchpoints and their percentage."""
    done = comparisons(tournament)
    byes = {n: tuple(e for t in tournament.tables if t.round == n and t.bye for e in t.seats)
            for n in done}  # fmt: skip
    wins: dict[str, int] = {}
    for comparison in done.values():
        for group in comparison.values():
            for scored in group:
                if scored.held.score == 1.0:
                    wins[scored.held.entry] = wins.get(scored.held.entry, 0) + 1
    names = {e.entry: e for e in tournament.entries}
    ranked = standings({e: names[e].rating for e in names},
                       [(done[n], byes[n]) for n in sorted(done)])  # fmt: skip
    return [
        {"rank": place, "entry": s.entry, "name": names[s.entry].name,
         "bot": names[s.entry].bot, "player_id": names[s.entry].player_id,
         "points": s.matchpoints, "top": s.top, "percentage": s.percentage,
         "buchholz": 0.0, "sonneborn_berger": 0.0, "games": s.boards,
         "wins": wins.get(s.entry, 0), "byes": s.byes,
         "withdrawn": not names[s.entry].active, "streak": False}
        for place, s in enumerate(ranked, start=1)
    ]  # fmt: skip
