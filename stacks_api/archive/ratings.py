"""Ratings in the archive: applied to each rated game in the transaction that keeps
it, read by profiles and the leaderboard, and rebuilt by ``recompute``.

A game is rated once: only a game the archive's insert found new is rated, in
the same transaction, so a batch archived again (a worker that died before it
acknowledged) rates nothing twice. The rows a game changes are locked first, in
one order (PostgreSQL: ``FOR UPDATE``; SQLite: the batch's first write already
holds the database's one write lock), so two archivers rating games of the same
player one after the other never lose an update.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    delete,
    distinct,
    func,
    insert,
    select,
    true,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import aliased

from ..competition.ratings import (
    PROVISIONAL_SIGMA,
    Establishment,
    Rating,
    Standing,
    Starts,
    bot_subject,
    fresh,
    rate,
    shown,
)
from ..model.record import JSON
from .errors import connected
from .models import Player, PlayerRating, RatingChange

ACTIVE_DAYS = 30  # the leaderboard ranks players with a rated game this recent
OPPONENTS = 5  # ...against at least this many different opponents in that time
BOT = bot_subject("")  # the prefix of a bot level's rated name
Key = tuple[str, str]  # (subject, variant)


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished rated game as the ratings need it."""

    game_id: str
    variant: str
    ended_at: float
    standings: list[Standing]


class RatingBook:
    def __init__(
        self, engine: Engine, clock: Callable[[], float] = time.time, starts: Starts = fresh
    ) -> None:
        self.engine = engine
        self.clock = clock
        self.starts = starts
        self.opponents = OPPONENTS  # different opponents a leaderboard entry has met
        self.establishment = Establishment()  # what an opponent needs to count fully

    def apply(self, connection: Connection, games: Iterable[RatedGame]) -> None:
        """Rate ``games`` (new to the archive, in this transaction), oldest first."""
        games = sorted((g for g in games if g.standings), key=lambda g: (g.ended_at, g.game_id))
        keys = sorted({(s.subject, g.variant) for g in games for s in g.standings})
        if not keys:
            return
        current = self._locked(connection, keys)
        known = _Acquaintances.read(connection, sorted({s for s, _ in keys}), self.establishment)
        counts: dict[Key, tuple[int, float]] = {}
        changes = []
        for game in games:
            before = {s.subject: current[(s.subject, game.variant)] for s in game.standings}
            after = rate(before, game.standings, known.weighed(game.standings, game.ended_at))
            for s in sorted(game.standings, key=lambda s: s.seat):
                old, new = before[s.subject], after[s.subject]
                changes.append(_change_row(game, s, old, new))
                current[(s.subject, game.variant)] = new
                games_so_far, _ = counts.get((s.subject, game.variant), (0, 0.0))
                counts[(s.subject, game.variant)] = (games_so_far + 1, game.ended_at)
        connection.execute(insert(RatingChange), changes)
        for (subject, variant), (played, last_at) in counts.items():
            rating = current[(subject, variant)]
            connection.execute(
                update(PlayerRating)
                .where(PlayerRating.subject == subject, PlayerRating.variant == variant)
                .values(
                    mu=rating.mu,
                    sigma=rating.sigma,
                    last_at=last_at,
                    games=PlayerRating.games + played,
                )
            )

    def weights(self, subjects: list[str]) -> dict[str, float]:
        """Each subject's weight as an opponent now: what a game's stakes are scaled by."""
        with connected(self.engine) as connection:
            known = _Acquaintances.read(connection, subjects, self.establishment)
        now = self.clock()
        return {s: known.weight(s, now) for s in subjects}

    def current(self, subjects: list[str], variant: str) -> dict[str, Rating]:
        """The subjects' ratings in ``variant`` now (where they start, if unrated)."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(PlayerRating.subject, PlayerRating.mu, PlayerRating.sigma).where(
                    PlayerRating.subject.in_(subjects), PlayerRating.variant == variant
                )
            )
            found = {r.subject: Rating(r.mu, r.sigma) for r in rows}
        return {s: found.get(s) or self.starts(s, variant) for s in subjects}

    def _locked(self, connection: Connection, keys: list[Key]) -> dict[Key, Rating]:
        """The subjects' ratings, each row made if missing and locked till commit."""
        dialect: Any = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        starts = {key: self.starts(*key) for key in keys}
        made = [{"subject": s, "variant": v, "mu": starts[s, v].mu, "sigma": starts[s, v].sigma,
                 "games": 0, "last_at": 0.0} for s, v in keys]  # fmt: skip
        connection.execute(dialect.insert(PlayerRating).on_conflict_do_nothing(), made)
        query = (
            select(PlayerRating.subject, PlayerRating.variant, PlayerRating.mu, PlayerRating.sigma)
            .where(tuple_(PlayerRating.subject, PlayerRating.variant).in_(keys))
            .order_by(PlayerRating.subject, PlayerRating.variant)
        )
        if self.engine.dialect.name == "postgresql":
            query = query.with_for_update()
        return {(r.subject, r.variant): Rating(r.mu, r.sigma) for r in connection.execute(query)}

    def of(self, subject: str) -> JSON:
        """A subject's ratings: ``{variant: shown rating}``."""
        return self.of_many([subject])[subject]

    def of_many(self, subjects: list[str]) -> dict[str, JSON]:
        """``of`` for each subject, in one query (a subject without ratings: ``{}``)."""
        found: dict[str, JSON] = {s: {} for s in subjects}
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(PlayerRating)
                .where(PlayerRating.subject.in_(subjects), PlayerRating.games > 0)
            )  # fmt: skip
            for r in rows:
                found[r.subject][r.variant] = shown(Rating(r.mu, r.sigma), r.games)
        return found

    def leaderboard(self, variant: str, limit: int, bots: bool = False) -> list[JSON]:
        """The best people of a variant (with ``bots``: the best bot accounts): no bot
        level, no provisional rating, and only those who played rated games against
        at least ``OPPONENTS`` different established opponents within ``ACTIVE_DAYS``
        (a rating bought from one friend, one's own bot, or throwaway accounts never
        ranks): a bot level, or an account as old, and that has met as many different
        people, as ``establishment`` needs."""
        now, needs = self.clock(), self.establishment
        since = now - ACTIVE_DAYS * 86400
        mine, theirs = aliased(RatingChange), aliased(RatingChange)
        one, other = aliased(RatingChange), aliased(RatingChange)
        well_met = (
            select(one.subject)
            .join(other, (other.game_id == one.game_id) & (other.side != one.side))
            .where(~other.subject.startswith(BOT))
            .group_by(one.subject)
            .having(func.count(distinct(other.subject)) >= needs.opponents)
        )
        old_enough = select(Player.id).where(Player.created_at <= now - needs.age_s)
        established_opponent = theirs.subject.startswith(BOT) | (
            (theirs.subject.in_(well_met) if needs.opponents else true())
            & (theirs.subject.in_(old_enough) if needs.age_s else true())
        )
        met_enough = (
            select(mine.subject)
            .join(theirs, (theirs.game_id == mine.game_id) & (theirs.side != mine.side))
            .where(mine.variant == variant, mine.ended_at >= since, established_opponent)
            .group_by(mine.subject)
            .having(func.count(distinct(theirs.subject)) >= self.opponents)
        )
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(
                    Player.id, Player.name, PlayerRating.mu, PlayerRating.sigma, PlayerRating.games
                )
                .join(Player, Player.id == PlayerRating.subject)
                .where(
                    PlayerRating.variant == variant,
                    PlayerRating.sigma < PROVISIONAL_SIGMA,
                    PlayerRating.last_at >= since,
                    PlayerRating.subject.in_(met_enough) if self.opponents else true(),
                    Player.closed_at.is_(None),  # closed and deleted accounts rank no more
                    Player.bot.is_(bots),
                )
                .order_by(PlayerRating.mu.desc(), Player.id)
                .limit(limit)
            ).all()
        return [{"id": r.id, "name": r.name, **shown(Rating(r.mu, r.sigma), r.games)}
                for r in rows]  # fmt: skip

    def bot_levels(self, variant: str) -> list[JSON]:
        """Every rated bot level of a variant, best first (the ladder in rating points)."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(PlayerRating)
                .where(
                    PlayerRating.variant == variant,
                    PlayerRating.subject.startswith(BOT),
                    PlayerRating.games > 0,
                )
                .order_by(PlayerRating.mu.desc())
            ).all()
        return [{"level": r.subject.removeprefix(BOT), **shown(Rating(r.mu, r.sigma), r.games)}
                for r in rows]  # fmt: skip

    def changes(self, game_id: str) -> list[JSON]:
        """What a rated game did to each rated seat (empty: it changed nothing)."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(RatingChange)
                .where(RatingChange.game_id == game_id)
                .order_by(RatingChange.seat)
            )
            return [_change_json(r) for r in rows]

    def history(self, subject: str, variant: str, limit: int = 500) -> list[JSON]:
        """A subject's rating after each of its last ``limit`` rated games, oldest first."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(RatingChange.game_id, RatingChange.ended_at, RatingChange.mu_after)
                .where(RatingChange.subject == subject, RatingChange.variant == variant)
                .order_by(RatingChange.seq.desc())
                .limit(limit)
            ).all()
        return [{"game_id": r.game_id, "ended_at": r.ended_at, "rating": round(r.mu_after)}
                for r in reversed(rows)]  # fmt: skip

    def recompute(self) -> int:
        """Rebuild every rating from the rated games' standings, in the order they were
        rated, in one transaction; how many games. Gives exactly what the updates
        gave, game by game (the same arithmetic in the same order)."""
        with connected(self.engine, write=True) as connection:
            rows = connection.execute(select(RatingChange).order_by(RatingChange.seq))
            games: dict[str, list[Any]] = {}
            for row in rows:
                games.setdefault(row.game_id, []).append(row)
            current: dict[Key, Rating] = {}
            totals: dict[Key, tuple[int, float]] = {}
            rewritten = []
            known = _Acquaintances.read(connection, None, self.establishment, met_so_far=False)
            for changes in games.values():
                variant = changes[0].variant
                standings = [Standing(c.seat, c.subject, c.side, c.rank)
                             for c in sorted(changes, key=lambda c: c.seat)]  # fmt: skip
                before = {s.subject: current.get((s.subject, variant))
                          or self.starts(s.subject, variant) for s in standings}  # fmt: skip
                after = rate(before, standings, known.weighed(standings, changes[0].ended_at))
                for c in changes:
                    old, new = before[c.subject], after[c.subject]
                    rewritten.append({"at": c.seq, "mb": old.mu, "sb": old.sigma,
                                      "ma": new.mu, "sa": new.sigma})  # fmt: skip
                    current[(c.subject, variant)] = new
                    played, _ = totals.get((c.subject, variant), (0, 0.0))
                    totals[(c.subject, variant)] = (played + 1, c.ended_at)
            if rewritten:
                connection.execute(_REWRITE, rewritten)
            connection.execute(delete(PlayerRating))
            fresh = [{"subject": s, "variant": v, "mu": current[(s, v)].mu,
                      "sigma": current[(s, v)].sigma, "games": n, "last_at": at}
                     for (s, v), (n, at) in totals.items()]  # fmt: skip
            if fresh:
                connection.execute(insert(PlayerRating), fresh)
        return len(games)


@dataclass
class _Acquaintances:
    """Whom each account has met in rated games, and when it was made: what makes it
    an established opponent (``competition.ratings.established``). Read once a batch
    (or a recompute), then brought up to date game by game in the order they are
    rated, so that ``apply`` and ``recompute`` weigh every game alike."""

    met: dict[str, set[str]]  # an account -> the different people it has played
    made_at: dict[str, float]
    establishment: Establishment

    @classmethod
    def read(
        cls, connection: Connection, subjects: list[str] | None, establishment: Establishment,
        met_so_far: bool = True,
    ) -> _Acquaintances:  # fmt: skip
        """For ``subjects`` (None: every account); with ``met_so_far``, whom they met in
        the games rated before (a recompute starts from nobody)."""
        people = None if subjects is None else [s for s in subjects if not s.startswith(BOT)]
        made = select(Player.id, Player.created_at)
        if people is not None:
            made = made.where(Player.id.in_(people))
        known = cls({}, {r.id: r.created_at for r in connection.execute(made)}, establishment)
        if met_so_far:
            mine, theirs = aliased(RatingChange), aliased(RatingChange)
            pairs = (
                select(mine.subject, theirs.subject.label("other"))
                .join(theirs, (theirs.game_id == mine.game_id) & (theirs.side != mine.side))
                .where(mine.subject.in_(people or []), ~theirs.subject.startswith(BOT))
                .distinct()
            )
            for row in connection.execute(pairs):
                known.met.setdefault(row.subject, set()).add(row.other)
        return known

    def weight(self, subject: str, at: float) -> float:
        """The subject's weight as an opponent at ``at`` (an account not found: none)."""
        age = None if subject.startswith(BOT) else at - self.made_at.get(subject, at)
        return self.establishment.weight(len(self.met.get(subject, ())), age)

    def weighed(self, standings: list[Standing], at: float) -> dict[str, float]:
        """Each subject's weight as an opponent in a game that ended ``at``; then the
        game's people are counted as met."""
        weights = {s.subject: self.weight(s.subject, at) for s in standings}
        for s in standings:
            if not s.subject.startswith(BOT):
                self.met.setdefault(s.subject, set()).update(
                    o.subject for o in standings
                    if o.side != s.side and not o.subject.startswith(BOT)
                )  # fmt: skip
        return weights


# One change row's numbers rewritten (executemany, by its seq).
_REWRITE = (
    update(RatingChange)
    .where(RatingChange.seq == bindparam("at"))
    .values(
        mu_before=bindparam("mb"),
        sigma_before=bindparam("sb"),
        mu_after=bindparam("ma"),
        sigma_after=bindparam("sa"),
    )
)


def _change_row(game: RatedGame, s: Standing, old: Rating, new: Rating) -> JSON:
    return {
        "game_id": game.game_id,
        "seat": s.seat,
        "subject": s.subject,
        "variant": game.variant,
        "side": s.side,
        "rank": s.rank,
        "mu_before": old.mu,
        "sigma_before": old.sigma,
        "mu_after": new.mu,
        "sigma_after": new.sigma,
        "ended_at": game.ended_at,
    }


def _change_json(row: Any) -> JSON:
    before, after = round(row.mu_before), round(row.mu_after)
    return {
        "seat": row.seat,
        "subject": row.subject,
        "rank": row.rank,
        "before": before,
        "after": after,
        "change": after - before,
        "provisional": Rating(row.mu_after, row.sigma_after).provisional,
        "was_provisional": Rating(row.mu_before, row.sigma_before).provisional,
    }
