"""What a tournament shows and what its pairing sees: its standings (a swiss's
points and tie-breaks, an arena's points and streaks), its rounds, and its entries
after the results so far."""

from __future__ import annotations

from collections.abc import Iterable

from ..competition.arena import points as arena_points
from ..competition.swiss import Entrant, Result, standings
from ..model.record import JSON
from ..model.tournaments import Tournament
from .duplicate import duplicate_standings, shown_rounds


def last_opponents(tournament: Tournament) -> dict[str, str]:
    """Each entry's opponent in its latest two-player game."""
    last: dict[str, str] = {}
    for table in tournament.tables:  # in the order they were made
        if len(table.seats) == 2:
            a, b = table.seats
            last[a], last[b] = b, a
    return last


def stand_ins(tournament: Tournament, wanted: int) -> list[str]:
    """Withdrawn entries, the latest first, whose seats a bot plays in a duplicate
    event's next round, so that its deal is still compared at two tables at least
    (they rank as withdrawn)."""
    gone = sorted((e for e in tournament.entries if not e.active),
                  key=lambda e: -(e.withdrawn_at or 0.0))  # fmt: skip
    return [e.entry for e in gone[: max(0, wanted)]]


def entrants(tournament: Tournament, also: Iterable[str] = ()) -> list[Entrant]:
    """The entries still in (and the withdrawn ones named in ``also``), as the
    pairing sees them after the rounds so far."""
    kept = set(also)
    found = {e.entry: Entrant(e.entry, e.rating) for e in tournament.entries
             if e.active or e.entry in kept}  # fmt: skip
    for table in tournament.tables:
        seats, points = table.seats, table.points or (0.0,) * len(table.seats)
        for seat, (entry, scored) in enumerate(zip(seats, points, strict=True)):
            entrant = found.get(entry)
            if entrant is None:
                continue  # withdrawn: its past results still count for the others
            entrant.points += scored
            if table.bye:
                entrant.byes += 1
                continue
            entrant.met.update(e for e in seats if e != entry)
            entrant.seats.append(min(seat, 1))
    return list(found.values())


def shown(tournament: Tournament) -> JSON:
    """A tournament as everyone may see it: its tables' server seeds stay secret (a
    seed is revealed in its game's record once the game is over). A duplicate
    event's round shows no result until its last game has ended, then its
    comparison; its entries' entropy shows once it has started."""
    rounds: dict[int, list[JSON]] = {}
    for table in tournament.tables:
        hidden = tournament.duplicate and not tournament.round_over(table.round)
        rounds.setdefault(table.round, []).append(table.shown(hidden))
    entries = [e.to_json() for e in tournament.entries]
    if tournament.status == "upcoming":
        for entry in entries:
            entry["entropy"] = None
    return {
        **tournament.columns(),
        "entrants": len(tournament.active()),
        "entries": entries,
        "standings": _standings(tournament),
        "pairings": [{"round": n, "tables": rounds[n]} for n in sorted(rounds)],
        "deals": shown_rounds(tournament) if tournament.duplicate else None,
    }


def _standings(tournament: Tournament) -> list[JSON]:
    if tournament.system == "arena":
        return arena_standings(tournament)
    if tournament.duplicate:
        return duplicate_standings(tournament)
    names = {e.entry: e for e in tournament.entries}
    results: list[Result] = []
    byes: list[str] = []
    for table in tournament.tables:
        if table.points is None:
            continue
        if table.bye:
            byes += table.seats
        else:
            results.append(Result(table.seats, table.points))
    ranked = standings({e: names[e].rating for e in names}, results, byes)
    return [
        {"rank": place, "entry": s.id, "name": names[s.id].name, "bot": names[s.id].bot,
         "player_id": names[s.id].player_id, "points": s.points, "buchholz": s.buchholz,
         "sonneborn_berger": s.sonneborn_berger, "games": s.games, "wins": s.wins,
         "byes": s.byes, "withdrawn": not names[s.id].active, "streak": False}
        for place, s in enumerate(ranked, start=1)
    ]  # fmt: skip


def arena_standings(tournament: Tournament) -> list[JSON]:
    """Arena points (``stacks_api.competition.arena``), then rating."""
    names = {e.entry: e for e in tournament.entries}
    played: dict[str, list[float]] = {entry: [] for entry in names}
    for table in tournament.tables:  # in the order they were made
        for entry, scored in zip(table.seats, table.points or (), strict=False):
            played[entry].append(scored)
    rows = []
    for entry, results in played.items():
        total, streak = arena_points(results)
        rows.append((entry, total, streak, results))
    rows.sort(key=lambda r: (-r[1], -names[r[0]].rating, r[0]))
    return [
        {"rank": place, "entry": entry, "name": names[entry].name, "bot": names[entry].bot,
         "player_id": names[entry].player_id, "points": float(total), "buchholz": 0.0,
         "sonneborn_berger": 0.0, "games": len(results),
         "wins": sum(1 for r in results if r == 1.0), "byes": 0,
         "withdrawn": not names[entry].active, "streak": streak}
        for place, (entry, total, streak, results) in enumerate(rows, start=1)
    ]  # fmt: skip
