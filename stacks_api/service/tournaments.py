"""Tournaments: swiss events for people and bots, run by the workers.

A player makes a tournament (``create``); players join and withdraw, and its
creator may enter bots (``bot:<level>``). Nothing of the running happens in a
request: every worker's chores call ``step`` about once a second, which, for each
tournament with something to do,

1. starts it once its time has come and two entries are in; one that has
   fewer waits up to ``GATHER_S`` past its start for them, and is cancelled then
   (a cancelled tournament, like a finished one, is never read by the workers
   again);
2. writes the result of each table of the current round whose game has ended
   (points: the game's scores, 1 a win, 0.5 a draw, 0 a loss; an aborted or
   cancelled game scores 0 for every seat);
   A person whose clock ran out on their first turn, who has made no move of
   their own, is a no-show: their side resigns, for them, and loses;
3. once every table of the round has its result, pairs the next round
   (``stacks_api.competition.swiss``) from the entries not withdrawn and the results so far,
   and makes it with a compare-and-set in the archive (the round's number from
   n - 1 to n, with its tables, in one transaction), then makes its games;
4. after the last round, finishes it.

The pairing is a function of the entries and results alone, so a worker that
dies while pairing leaves nothing behind and the next one pairs the same round;
one that dies after the round was made but before its games were, leaves tables
whose games the next step makes, each the same (its id and its deal's server
seed were kept with the table). The games are rated when the tournament is, and
each game's record names its tournament and round.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import replace

from .. import bots
from ..competition.arena import pair_free
from ..competition.swiss import pair
from ..engine import SetupError, create_game, restore_game
from ..model.fairness import SCHEME, commitment, server_seed
from ..model.record import JSON, Fairness, GameRecord, Seat
from ..model.refusals import Refusal, validation_error
from ..model.tokens import new_token, token_hash
from ..model.tournaments import Board, Entry, Tournament
from .concede import Concede
from .cursors import key_cursor, read_key
from .duplicate import duplicate_standings, round_fairness, table_detail
from .lobby import START_RATING, Lobby
from .ports import Tournaments as Book
from .standings import arena_standings, entrants, last_opponents, shown, stand_ins
from .table import Table
from .tournament_games import NoShows, found_game, game_events

DEFAULT_TURN_SECONDS = 60.0  # every tournament game is clocked: an absent player's ends
MOST_ROUNDS = 20
MOST_ENTRIES = 1000
MOST_BOTS = 8  # a creator's bots in one tournament
MOST_UPCOMING = 5  # upcoming tournaments one account has made
DUPLICATE_FEWEST = 4  # a deal compared at two tables at least
FEWEST_TO_GO_ON = 2  # active entries a started event needs for its next round
STAND_IN = "medium"  # the bot that plays a withdrawn entry's seat (duplicate)
GATHER_S = 300.0  # how long past its start a tournament waits for its second entry
PAGE = 20
BOT = "bot:"


class Tournaments:
    def __init__(
        self, table: Table, lobby: Lobby, concede: Concede, bots_alone: str | None = None
    ) -> None:
        self.table = table
        self.lobby = lobby
        self.no_shows = NoShows(table, concede)
        # The creator's budget of games with no person in them (None: no limit), the
        # same as for games a request makes with a bot at every seat.
        self.bots_alone = bots_alone

    @property
    def book(self) -> Book:
        return self.table.archive_for("tournaments").tournaments

    # -- requests -------------------------------------------------------------

    def create(self, player_id: str, body: JSON) -> JSON:
        """A new swiss, arena or duplicate event, upcoming until ``starts_at``."""
        system = body["system"]
        length = "minutes" if system == "arena" else "rounds"
        if body.get(length) is None:
            raise validation_error(length, f"a {system} needs its number of {length}")
        players, days = body.get("players", 2), body.get("days")
        if system == "duplicate" and players != 2:
            raise validation_error("players", "a duplicate event is played two at a table")
        if days is not None and body.get("clock"):
            raise validation_error("days", "a tournament has days a turn or a clock, not both")
        seconds = body.get("clock") or DEFAULT_TURN_SECONDS
        try:  # the variant checks the table size and the clock
            create_game(body["variant"], players, 0, {"turn_seconds": seconds})
        except SetupError as err:
            raise validation_error(err.field, err.message) from None
        now = self.table.clock()
        tournament = Tournament(
            id=secrets.token_hex(8), name=body.get("name") or f"{body['variant']} {system}",
            creator=player_id, variant=body["variant"], system=system,
            rounds=body.get("rounds") if system != "arena" else None,
            minutes=body.get("minutes") if system == "arena" else None, players=players,
            rated=bool(body.get("rated")), turn_seconds=float(seconds), days=days,
            max_players=body.get("max_players") or MOST_ENTRIES,
            starts_at=max(float(body["starts_at"]), now),
            # A duplicate event commits to every round's deal now, before any entropy.
            seeds=tuple(server_seed() for _ in range(body["rounds"]))
            if system == "duplicate" else (),
        )  # fmt: skip
        if not self.book.create(tournament, MOST_UPCOMING):
            raise Refusal("too_many_tournaments", f"you have {MOST_UPCOMING} upcoming "
                          "tournaments already: let one start first")  # fmt: skip
        self.table.jobs.wake()  # in-process workers start with the first thing to do
        return self.get(tournament.id)

    def listed(self) -> list[JSON]:
        return self.book.listed()

    def page(
        self, status: str, after: str | None, limit: int = PAGE
    ) -> tuple[list[JSON], str | None]:
        """A page of the tournaments in ``status`` (upcoming ones most entrants first)
        and the cursor of the next (None: this was the last)."""
        start = None if after is None else read_key(after)
        found, following = self.book.page(status, start, limit)
        return found, None if following is None else key_cursor(following)

    def get(self, tournament_id: str) -> JSON:
        """The tournament, its entries, standings and rounds (each with its tables)."""
        found = self.book.get(tournament_id)
        if found is None:
            raise Refusal("not_found", f"no tournament with id {tournament_id!r}")
        return shown(found)

    def join(
        self, player_id: str, tournament_id: str, bot: str | None, count: int = 1,
        entropy: str | None = None,
    ) -> JSON:  # fmt: skip
        """Enter the caller (with ``entropy`` for a duplicate event's deals), or (its
        creator only) ``count`` bots of level ``bot``."""
        found = self._open(tournament_id)
        if found.duplicate and found.status != "upcoming":
            raise Refusal("tournament_started", "a duplicate event takes entries only before "
                          "it starts: each round's deal mixes its entrants' entropy")  # fmt: skip
        archive = self.table.archive_for("tournaments")
        if bot is None:
            player = archive.accounts.player(player_id)
            assert player is not None  # the caller's key was found
            rating = self._rating(player_id, found)
            entries = [Entry(entry=player_id, player_id=player_id, bot=None,
                             name=player["name"], rating=rating, entropy=entropy)]  # fmt: skip
        else:
            if player_id != found.creator:
                raise Refusal("forbidden", "only the tournament's creator may enter bots")
            if bot not in bots.NAMES:
                raise validation_error("bot", f"unknown bot {bot!r}; choose from "
                                              f"{', '.join(bots.BOTS)}")  # fmt: skip
            bots_in = [e for e in found.active() if e.bot is not None]
            if len(bots_in) + count > MOST_BOTS:
                raise Refusal("too_many_bots", f"a creator enters at most {MOST_BOTS} bots in "
                              f"a tournament ({len(bots_in)} are in)")  # fmt: skip
            taken = {e.entry for e in found.entries}
            numbers = (n for n in range(1, MOST_ENTRIES + 2) if f"{BOT}{bot}:{n}" not in taken)
            rating = self._rating(f"{BOT}{bot}", found)
            entries = [Entry(entry=f"{BOT}{bot}:{n}", player_id=None, bot=bot,
                             name=f"{bot} bot {n}", rating=rating)
                       for n, _ in zip(numbers, range(count), strict=False)]  # fmt: skip
        for entry in entries:
            refused = self.book.enter(tournament_id, entry, found.max_players)
            if refused == "full":
                raise Refusal("tournament_full", f"the tournament takes at most "
                                                 f"{found.max_players} entries")  # fmt: skip
            if refused == "entered":
                raise Refusal("already_entered", "you are in this tournament already")
        self.table.jobs.wake()
        return self.get(tournament_id)

    def withdraw(self, player_id: str, tournament_id: str, entry: str | None) -> JSON:
        """Withdraw the caller (or, its creator, a bot entry) from the rounds to come."""
        found = self._open(tournament_id)
        entry = entry or player_id
        if entry != player_id and not (entry.startswith(BOT) and player_id == found.creator):
            raise Refusal("forbidden", "you may withdraw only yourself (a creator: its bots)")
        if not self.book.withdraw(tournament_id, entry):
            raise Refusal("not_found", f"{entry!r} is not in this tournament")
        return self.get(tournament_id)

    def start(self, player_id: str, tournament_id: str) -> JSON:
        """Start an upcoming tournament now (its creator, once two are in); an arena's
        minutes count from now."""
        found = self._open(tournament_id)
        if player_id != found.creator:
            raise Refusal("forbidden", "only the tournament's creator may start it early")
        if found.status != "upcoming":
            raise Refusal("tournament_started", "the tournament has started already")
        if len(found.active()) < _fewest(found):
            raise Refusal("too_few_entries", f"a {found.system} starts with {_fewest(found)} "
                          "entries or more")  # fmt: skip
        if not self.book.start_now(tournament_id, self.table.clock()):
            raise Refusal("tournament_started", "the tournament has started already")
        self.table.jobs.wake()
        return self.get(tournament_id)

    def _open(self, tournament_id: str) -> Tournament:
        found = self.book.get(tournament_id)
        if found is None:
            raise Refusal("not_found", f"no tournament with id {tournament_id!r}")
        if found.ended:
            raise Refusal("tournament_over", f"the tournament is {found.status}")
        return found

    def _rating(self, subject: str, tournament: Tournament) -> float:
        return self.table.ratings_of(subject).get(tournament.variant, START_RATING)

    # -- the workers' part ----------------------------------------------------

    def step(self, now: float) -> int:
        """Move every tournament that has something to do one step; how many did."""
        archive = self.table.archive
        if archive is None:
            return 0
        moved = 0
        for tournament_id in archive.tournaments.live(now):
            moved += self._step(tournament_id, now)
        return moved

    def _step(self, tournament_id: str, now: float) -> int:
        found = self.book.get(tournament_id)
        if found is None:
            return 0
        if found.status == "upcoming":
            if len(found.active()) < _fewest(found):  # too few: it ends before it began
                if now < found.starts_at + GATHER_S:
                    return 0
                return int(self.book.advance(tournament_id, "upcoming", "cancelled", now))
            self.book.advance(tournament_id, "upcoming", "running", None)
            found = self.book.get(tournament_id)
            assert found is not None
        if found.system == "arena":
            return self._arena_step(found, now)
        found = self._settled(found, found.round)
        if any(t.points is None for t in found.tables if t.round == found.round):
            return 0  # games still being played
        if found.round >= (found.rounds or 0) or len(found.active()) < FEWEST_TO_GO_ON:
            finished = self.book.advance(tournament_id, "running", "finished", now, found.round)
            return int(finished)
        return self._next_round(found, now)

    def _arena_step(self, tournament: Tournament, now: float) -> int:
        """Settle the games that ended, then pair whoever is free (until the arena's
        time is up; then finish it once its last games have ended)."""
        tournament = self._settled(tournament, None)
        busy = {e for t in tournament.tables if t.points is None for e in t.seats}
        if now >= tournament.starts_at + 60 * (tournament.minutes or 0):
            if busy:
                return 0
            finished = self.book.advance(tournament.id, "running", "finished", now,
                                         tournament.round)  # fmt: skip
            return int(finished)
        scored = {s["entry"]: s["points"] for s in arena_standings(tournament)}
        free = [e for e in entrants(tournament) if e.id not in busy]
        for entrant in free:  # ranked by arena points
            entrant.points = scored[entrant.id]
        made = pair_free(free, last_opponents(tournament), tournament.players)
        return self._add_round(tournament, [t.seats for t in made], byes=())

    def _settled(self, tournament: Tournament, number: int | None) -> Tournament:
        """Write the result of each table of round ``number`` (None: of every round)
        whose game ended; the tournament with those results (a result is the game's,
        whichever worker writes it first)."""
        tables = []
        for table in tournament.tables:
            if table.points is None and number in (None, table.round):
                ended = self._ended(tournament, table)
                if ended is not None:
                    points = _points(None if ended.result is None else ended.result.scores,
                                     ended.players)  # fmt: skip
                    detail = None
                    if tournament.duplicate:
                        events = game_events(self.table, ended)
                        detail = table_detail(restore_game(ended.game), events)
                    self.book.score(tournament.id, table.round, table.board, list(points),
                                    detail)  # fmt: skip
                    table = replace(table, points=points, detail=detail)
            tables.append(table)
        return replace(tournament, tables=tuple(tables))

    def _ended(self, tournament: Tournament, table: Board) -> GameRecord | None:
        """The table's game once it has ended (None while it is played). A game never
        made (its worker died between making the round and making the game) is made
        now; a no-show is forfeited."""
        assert table.game_id is not None  # a bye is scored when it is made
        record = found_game(self.table, table.game_id)
        if record is None:
            self._make_game(tournament, table)
        elif not record.ended:
            self.no_shows.forfeit(record)
        return record if record is not None and record.ended else None

    def _next_round(self, tournament: Tournament, now: float) -> int:
        playing = entrants(tournament)
        if tournament.duplicate:  # paired by matchpoints, never twice the same two
            playing = entrants(tournament, stand_ins(tournament, DUPLICATE_FEWEST - len(playing)))
            scored = {s["entry"]: s["points"] for s in duplicate_standings(tournament)}
            for entrant in playing:
                entrant.points = scored[entrant.id]
        made = pair(playing, tournament.players, rematches=not tournament.duplicate)
        if made is None:  # every pairing would repeat a game: the event is over
            finished = self.book.advance(tournament.id, "running", "finished", now,
                                         tournament.round)  # fmt: skip
            return int(finished)
        return self._add_round(tournament, [t.seats for t in made.tables], made.byes)

    def _add_round(
        self, tournament: Tournament, seated: list[tuple[str, ...]], byes: tuple[str, ...]
    ) -> int:
        """Make the next round (an arena's next wave of pairings) with these tables and
        byes, unless another worker made it first, then its games."""
        if not seated and not byes:
            return 0
        number = tournament.round + 1
        shared = tournament.seeds[number - 1] if tournament.duplicate else None
        tables = [Board(round=number, board=n, seats=seats, game_id=secrets.token_hex(8),
                        server_seed=shared or server_seed())
                  for n, seats in enumerate(seated, start=1)]  # fmt: skip
        tables += [Board(round=number, board=n, seats=(entry,), game_id=None, server_seed=None,
                         points=(1.0,))
                   for n, entry in enumerate(byes, start=len(tables) + 1)]  # fmt: skip
        if not self.book.add_round(tournament.id, number, tables):
            return 0  # another worker made it
        for table in tables:
            if not table.bye:
                self._make_game(tournament, table)
        return 1

    def _make_game(self, tournament: Tournament, table: Board) -> None:
        """The table's game, dealt from its kept server seed (made once: a second
        attempt finds it made)."""
        assert table.game_id is not None and table.server_seed is not None  # not a bye
        by_entry = {e.entry: e for e in tournament.entries}
        seats = tuple(_seat(by_entry[entry]) for entry in table.seats)
        if self._over_budget(tournament, seats):
            return  # made by a later step, once the creator's budget has room
        players, days = len(seats), tournament.days
        clock = None if days else {"turn_seconds": tournament.turn_seconds}
        game = create_game(tournament.variant, players, secrets.randbits(63), clock)
        seed = table.server_seed
        fair = Fairness(SCHEME, commitment(seed, None), seed, (None,) * players)
        placed: JSON = {"id": tournament.id, "round": table.round}
        duplicate = None
        if tournament.duplicate:  # the round's one deal, at every table
            fair = round_fairness(seed, tournament.entries, players)
            duplicate = {"tournament": tournament.id, "round": table.round}
        record, events = self.lobby.opened(
            table.game_id, game, seats, token_hash(new_token()), fair, rated=tournament.rated,
            tournament=placed, days=days, duplicate=duplicate,
            unlisted=duplicate is not None,  # a closed board is in no public listing
        )  # fmt: skip
        made = self.table.create(record, events)
        if made is not None:
            self.table.schedule(made)
            for seat in seats:
                if seat.player_id is not None:
                    self.table.store.index_player_game(seat.player_id, record.id,
                                                       self.table.clock())  # fmt: skip

    def _over_budget(self, tournament: Tournament, seats: tuple[Seat, ...]) -> bool:
        """Whether a game of bots alone would go past its creator's budget."""
        if self.bots_alone is None or any(seat.state != "bot" for seat in seats):
            return False
        budgets = self.table.store.budgets
        return not budgets.take("bots-alone", tournament.creator, self.bots_alone)


def _fewest(tournament: Tournament) -> int:
    """The entries a tournament needs to start."""
    return DUPLICATE_FEWEST if tournament.duplicate else 2


def _seat(entry: Entry) -> Seat:
    if not entry.active:  # a duplicate event's stand-in for a withdrawn entry
        return replace(Seat.for_bot(STAND_IN, {}), name=f"{entry.name} (stand-in)")
    if entry.bot is not None:  # named as entered: "medium bot 3"
        return replace(Seat.for_bot(entry.bot, {}), name=entry.name)
    # A person's seat answers to their player key; its own token is never handed out.
    return Seat("human", name=entry.name, token=token_hash(new_token()),
                player_id=entry.player_id, rating=entry.rating)  # fmt: skip


def _points(scores: Iterable[float] | None, players: int) -> tuple[float, ...]:
    """A game's points for the tournament: its scores (aborted or cancelled, none:
    nobody scores)."""
    return (0.0,) * players if scores is None else tuple(scores)
