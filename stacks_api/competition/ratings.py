"""Ratings: who finished where in a rated game, and OpenSkill's update from it.

The model is OpenSkill's Plackett-Luce (Weng-Lin), which rates teams, ties and
any number of sides in one update. Its numbers are scaled so that a new player
starts at 1500 with an uncertainty of 500 (OpenSkill's 25 and 25/3, times 60):
the rating shown is ``mu``, and a rating is provisional while its uncertainty
(``sigma``) is ``PROVISIONAL_SIGMA`` or more, which takes about a dozen games.

A game's standings come from its record document alone (``standings``), so the
archive rates a game when it keeps it and ``stacks-api ratings recompute``
rebuilds the same numbers from the kept games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from ..model.outcomes import away_at_end, opening_over, own_moves
from ..model.record import JSON

START_MU = 1500.0
START_SIGMA = 500.0
PROVISIONAL_SIGMA = 300.0
MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=START_SIGMA / 2, tau=START_MU / 300)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def provisional(self) -> bool:
        return self.sigma >= PROVISIONAL_SIGMA


# Where a subject's rating starts in a variant (``bot_ratings.start`` seats the bot
# levels where the measured ladder puts them; everyone else starts at 1500).
Starts = Callable[[str, str], Rating]


def fresh(subject: str, variant: str) -> Rating:
    """A new player's rating."""
    return Rating()


# A person who gave their seat up is a side of their own, numbered from here.
GONE_SIDES = 1000
# A game counts for ratings once every side made this many moves of its own: one
# that ends sooner (a resignation, a leave, a claim) rates nobody.
RATED_MOVES = 5
# An account counts fully as an opponent once it has met this many different people
# in rated games and is this old (``Establishment``).
ESTABLISHED_OPPONENTS = 5
ESTABLISHED_AGE_S = 7 * 86400.0


@dataclass(frozen=True, slots=True)
class Standing:
    """One rated seat: who it rates (a player id, or ``bot:<level>``), its side in the
    update and that side's rank (1 the best; equal ranks tie)."""

    seat: int
    subject: str
    side: int
    rank: int

    @property
    def gone(self) -> bool:
        """Whether the seat's person left, or was away to the end: they rank last and
        never gain from what the stand-in did for them."""
        return self.side >= GONE_SIDES


def bot_subject(level: str) -> str:
    """The rated name of a bot level (never on the leaderboard: it is no player)."""
    return f"bot:{level}"


def standings(document: Mapping[str, Any]) -> list[Standing]:
    """The standings of a finished rated game (empty: it changes no rating).

    Only play is rated: a game in which a side made fewer than ``RATED_MOVES``
    moves of its own (not the clock's nor the stand-in's for it), or someone left
    before the opening was over, rates nobody. Sides are the game's teams (in
    Stacks every player is one), ranked by their score: the winners first,
    everyone else equal below them, and all equal in a draw. A person who left, or
    whose seat the stand-in played to the end (away and never back), is a side of
    their own below everyone (their team, with the stand-in that played on, is
    ranked by the result). A bot level is rated only when it sits once in the
    game; otherwise its seats are left out.
    """
    if not document.get("rated") or document.get("status") != "finished":
        return []
    seats, events = document["seats"], document["events"]
    if _abandoned(events, seats) or not _played(events, seats):
        return []
    scores = document["result"]["scores"]
    levels = [s["bot"] for s in seats if s["bot"] is not None]
    away = away_at_end(events)
    gone = {s["seat"] for s in seats if s["left"] or (s["seat"] in away and s["bot"] is None)}
    order = sorted({scores[s["seat"]] for s in seats if s["seat"] not in gone}, reverse=True)
    last = len(order) + 1
    rated = []
    for seat in seats:
        subject = rated_subject(seat["bot"], seat["player_id"], levels)
        if subject is None:
            continue
        if seat["seat"] in gone:
            side, rank = GONE_SIDES + seat["seat"], last
        else:
            side, rank = _side(seat), 1 + order.index(scores[seat["seat"]])
        rated.append(Standing(seat["seat"], subject, side, rank))
    return rated if len({s.side for s in rated}) > 1 else []


def rated_subject(bot: str | None, player_id: str | None, levels: list[str]) -> str | None:
    """Whom a seat's result rates: a bot level (``bot``) when it sits once among the
    game's ``levels``, else a person's account; None for neither (a level that
    sits twice, or a person without an account)."""
    if bot is not None:
        return bot_subject(bot) if levels.count(bot) == 1 else None
    return player_id


def _abandoned(events: list[JSON], seats: list[JSON]) -> bool:
    """Whether someone left before the opening was over (every side's first moves)."""
    first_leave = next((n for n, e in enumerate(events) if e["type"] == "left"), None)
    if first_leave is None:
        return False
    sides = {seat["seat"]: _side(seat) for seat in seats}
    return not opening_over(events[:first_leave], sides)


def _played(events: list[JSON], seats: list[JSON]) -> bool:
    """Whether every side made ``RATED_MOVES`` moves of its own."""
    made = own_moves(events, len(seats))
    per_side: dict[int, int] = {}
    for seat in seats:
        per_side[_side(seat)] = per_side.get(_side(seat), 0) + made[seat["seat"]]
    return min(per_side.values()) >= RATED_MOVES


def _side(seat: JSON) -> int:
    """A seat's side: its team, or (a game without teams, as Stacks) the seat itself."""
    team: int | None = seat["team"]
    return seat["seat"] if team is None else team


@dataclass(frozen=True, slots=True)
class Establishment:
    """What makes an account an established opponent: ``opponents`` different people
    met in rated games, and ``age_s`` since it was made (0: nothing needed)."""

    opponents: int = ESTABLISHED_OPPONENTS
    age_s: float = ESTABLISHED_AGE_S

    def weight(self, met: int, age_s: float | None) -> float:
        """How much an opponent's result says, from 0 to 1: a bot level (``age_s``
        None) fully; an account in proportion to the people it had met and to its
        age, each up to what is needed. A fresh throwaway counts for almost nothing."""
        if age_s is None:
            return 1.0
        people = min(1.0, met / self.opponents) if self.opponents else 1.0
        grown = min(1.0, max(0.0, age_s) / self.age_s) if self.age_s else 1.0
        return people * grown


def rate(
    current: Mapping[str, Rating], rated: list[Standing],
    weights: Mapping[str, float] | None = None,
) -> dict[str, Rating]:  # fmt: skip
    """Each subject's rating after the game (``current`` holds every subject's
    rating before it; a subject missing from it starts new). A subject who is
    ``gone`` never gains (ranked last, they may still tie another who is gone).
    With ``weights`` (each subject's ``Establishment.weight``), a subject's rating moves
    only that share of the model's step: the mean weight of the other sides'
    subjects (a subject missing from them weighs 1)."""
    sides = sorted({s.side for s in rated})
    teams = [[s for s in rated if s.side == side] for side in sides]
    start = Rating()
    before = [[_model_rating(current.get(s.subject, start)) for s in team] for team in teams]
    after = MODEL.rate(before, ranks=[float(t[0].rank) for t in teams])
    moved = {}
    for team, new_team in zip(teams, after, strict=True):
        for standing, new in zip(team, new_team, strict=True):
            old = current.get(standing.subject, start)
            share = _opponents_weight(standing, rated, weights)
            mu, sigma = new.mu, new.sigma
            if share < 1.0:
                mu, sigma = old.mu + share * (mu - old.mu), old.sigma + share * (sigma - old.sigma)
            if standing.gone:
                mu = min(mu, old.mu)
            moved[standing.subject] = Rating(mu, sigma)
    return moved


def _opponents_weight(
    standing: Standing, rated: list[Standing], weights: Mapping[str, float] | None
) -> float:
    if weights is None:
        return 1.0
    others = [weights.get(s.subject, 1.0) for s in rated if s.side != standing.side]
    return sum(others) / len(others) if others else 1.0


@dataclass(frozen=True, slots=True)
class Stake:
    """What a rated game's end would do to one seat's rating: its side's win, a
    loss (another side wins: the mean over which), and a draw."""

    seat: int
    subject: str
    rating: Rating
    win: float
    loss: float
    draw: float


def stakes(
    current: Mapping[str, Rating], seated: list[Standing],
    weights: Mapping[str, float] | None = None,
) -> list[Stake]:  # fmt: skip
    """Each seat's stake in a game about to be played; ``seated`` gives each rated
    seat's subject and side (ranks are ignored). The same update ``rate`` makes."""
    sides = sorted({s.side for s in seated})
    if len(sides) < 2:
        return []

    def change(winner: int | None) -> dict[str, float]:
        ranked = [Standing(s.seat, s.subject, s.side, 1 if winner in (None, s.side) else 2)
                  for s in seated]  # fmt: skip
        after = rate(current, ranked, weights)
        return {s.subject: after[s.subject].mu - current[s.subject].mu for s in seated}

    wins = {side: change(side) for side in sides}
    drawn = change(None)
    found = []
    for s in seated:
        losses = [wins[side][s.subject] for side in sides if side != s.side]
        found.append(Stake(s.seat, s.subject, current[s.subject], wins[s.side][s.subject],
                           sum(losses) / len(losses), drawn[s.subject]))  # fmt: skip
    return found


def _model_rating(rating: Rating) -> Any:
    return MODEL.rating(mu=rating.mu, sigma=rating.sigma)


def shown(rating: Rating, games: int) -> JSON:
    """A rating as profiles and leaderboards show it."""
    return {
        "rating": round(rating.mu),
        "uncertainty": round(rating.sigma),
        "games": games,
        "provisional": rating.provisional,
    }
