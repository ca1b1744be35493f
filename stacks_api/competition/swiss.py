"""Swiss pairings and tournament standings: pure functions, no I/O.

A round of a swiss pairs players of equal score, nobody twice while that can be
avoided. The method is the Dutch system's core, as FIDE's rules describe it and
the established pairing programs implement it, without its long list of
colour and float criteria:

- Players are ranked by score, then rating, then entry id (a fixed order: the
  same entries and results always give the same pairings).
- With an odd number of players, the lowest-ranked player who has not had a bye
  gets it (the lowest-ranked of all when everybody has had one); a bye is worth
  a win.
- Within a score group the top half meets the bottom half in order (1 against
  n/2 + 1, 2 against n/2 + 2, ...); a player left over floats down to the next
  group. Where a pairing would repeat a game, the next candidate is tried, in
  the Dutch order of transpositions, with backtracking over the whole round.
- Only when no round without a rematch exists (a small field late in an event)
  are rematches allowed, the fewest the search finds first.
- Seats alternate: the player who has sat second more often sits first; on a
  tie, the one who sat second last time; on a tie again, the higher-ranked.

Tables of more than two (Stacks with 3 or 4 at a table) are cut from the ranking
in order, the byes going to the lowest-ranked players.

Standings: points, then Buchholz (the sum of the opponents' points, a bye
counting as an opponent with none), then Sonneborn-Berger (the sum of the points
of the opponents one beat, plus half of those one drew with), then rating.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

BYE_POINTS = 1.0
# The strict search (no rematches) gives up after this many steps and the round is
# paired allowing rematches: the search is exponential only where no strict round
# exists, and a field where it does finds one within a few steps per player.
SEARCH_STEPS = 20_000


@dataclass
class Entrant:
    """One entry as the pairing sees it: its points so far, whom it has met, which
    seats it took (0 or 1, in order), and whether it had a bye."""

    id: str
    rating: float = 1500.0
    points: float = 0.0
    met: set[str] = field(default_factory=set)
    seats: list[int] = field(default_factory=list)
    byes: int = 0


@dataclass(frozen=True)
class Table:
    """One game of a round: the entries in seat order."""

    seats: tuple[str, ...]


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[str, ...]


def rank(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Best first: points, rating, then the id (so the order is always the same)."""
    return sorted(entrants, key=lambda e: (-e.points, -e.rating, e.id))


def pair(entrants: list[Entrant], table_size: int = 2, rematches: bool = True) -> Round | None:
    """The next round's tables and byes for these (active) entrants; without
    ``rematches`` (two-player tables only), None when every round would repeat a game."""
    ranked = rank(entrants)
    byes_needed = len(ranked) % table_size
    byes = _byes(ranked, byes_needed)
    playing = [e for e in ranked if e.id not in byes]
    if table_size != 2:
        tables = [Table(tuple(e.id for e in playing[i : i + table_size]))
                  for i in range(0, len(playing), table_size)]  # fmt: skip
        return Round(tuple(tables), tuple(sorted(byes)))
    pairs = _search(playing, strict=True)
    if pairs is None and not rematches:
        return None
    pairs = pairs or _search(playing, strict=False)
    assert pairs is not None  # without the rematch rule any order pairs
    return Round(tuple(seated(a, b) for a, b in pairs), tuple(sorted(byes)))


def _byes(ranked: list[Entrant], count: int) -> set[str]:
    """The ``count`` lowest-ranked entrants with the fewest byes."""
    if count == 0:
        return set()
    lowest_first = list(reversed(ranked))
    chosen = sorted(lowest_first, key=lambda e: e.byes)[:count]  # stable: lowest first
    return {e.id for e in chosen}


def _search(playing: list[Entrant], strict: bool) -> list[tuple[Entrant, Entrant]] | None:
    """Pairs for ``playing`` (ranked), top player first, each with its first
    candidate in Dutch order that lets the rest be paired too. ``strict``: no
    rematches (None if there is no such round, or none was found in time)."""
    steps = [SEARCH_STEPS]

    def solve(remaining: list[Entrant]) -> list[tuple[Entrant, Entrant]] | None:
        if not remaining:
            return []
        steps[0] -= 1
        if strict and steps[0] < 0:
            return None
        top, rest = remaining[0], remaining[1:]
        for index in _candidates(top, rest, strict):
            pairs = solve(rest[:index] + rest[index + 1 :])
            if pairs is not None:
                return [(top, rest[index]), *pairs]
            if strict and steps[0] < 0:
                return None
        return None

    return solve(playing)


def _candidates(top: Entrant, rest: list[Entrant], strict: bool) -> list[int]:
    """Indexes into ``rest`` in the order ``top`` should try them: its score group
    from the top of the group's lower half down, then the upper half upwards, then
    the groups below in order. Unless ``strict``, players met before come last."""
    group = 0
    while group < len(rest) and rest[group].points == top.points:
        group += 1
    half = max((group + 1) // 2 - 1, 0)  # rest[half] is the lower half's top
    order = [*range(half, group), *range(half - 1, -1, -1), *range(group, len(rest))]
    fresh = [i for i in order if rest[i].id not in top.met]
    if strict:
        return fresh
    return fresh + [i for i in order if rest[i].id in top.met]


def seated(a: Entrant, b: Entrant) -> Table:
    """``a`` (ranked higher) and ``b`` in seat order: the one owed the first seat
    sits there."""
    lean_a, lean_b = sum(a.seats) * 2 - len(a.seats), sum(b.seats) * 2 - len(b.seats)
    if lean_a != lean_b:  # more second seats than first ones: sit first
        return Table((a.id, b.id) if lean_a > lean_b else (b.id, a.id))
    last_a, last_b = (a.seats[-1] if a.seats else None), (b.seats[-1] if b.seats else None)
    if last_a != last_b and last_a is not None and last_b is not None:
        return Table((a.id, b.id) if last_a == 1 else (b.id, a.id))
    return Table((a.id, b.id))


@dataclass(frozen=True)
class Result:
    """A finished table: the entries in seat order and each one's points."""

    seats: tuple[str, ...]
    points: tuple[float, ...]


@dataclass
class Standing:
    id: str
    rating: float
    points: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    games: int = 0
    wins: int = 0
    byes: int = 0


def standings(
    ratings: dict[str, float], results: Iterable[Result], byes: Iterable[str] = ()
) -> list[Standing]:
    """Every entry's points and tie-breaks, best first (see the module's text)."""
    table = {entry: Standing(entry, rating) for entry, rating in ratings.items()}
    played: list[Result] = list(results)
    for result in played:
        best = max(result.points)
        for entry, points in zip(result.seats, result.points, strict=True):
            standing = table[entry]
            standing.points += points
            standing.games += 1
            standing.wins += points == best and points > min(result.points)
    for entry in byes:
        table[entry].points += BYE_POINTS
        table[entry].byes += 1
    for result in played:
        for entry, points in zip(result.seats, result.points, strict=True):
            for other, theirs in zip(result.seats, result.points, strict=True):
                if other == entry:
                    continue
                table[entry].buchholz += table[other].points
                if points > theirs:
                    table[entry].sonneborn_berger += table[other].points
                elif points == theirs:
                    table[entry].sonneborn_berger += table[other].points / 2
    return sorted(
        table.values(),
        key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, -s.rating, s.id),
    )
