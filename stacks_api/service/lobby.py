"""Games before and around play: create one, list them, take a seat, cancel."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .. import bots
from ..engine import Game, SetupError, create_game
from ..model.events import Event
from ..model.fairness import CHOSEN, SCHEME, commitment, server_seed
from ..model.pace import DAYS
from ..model.record import JSON, STAND_IN, Fairness, GameRecord, Seat
from ..model.refusals import Refusal, validation_error
from ..model.tokens import matches, new_token, token_hash
from ..store import Change
from .changes import ended, settled, stamped, started_when_full
from .cursors import cursor as cursor_after
from .cursors import read_cursor
from .people import People
from .table import Caller, Table, own_seat, seat_of
from .views import render, summary

# The rating a player has in a variant they were never rated in.
START_RATING = 1500.0
WATCHED = 500  # the games being played that the watch list ranks


def seats_of(requested: list[Mapping[str, Any]], players: int) -> tuple[Seat, ...]:
    """The seats a create request asks for (a bot's, or free for a person), checked."""
    if len(requested) != players:
        raise validation_error(
            "seats", f"give one seat per player: {players}, not {len(requested)}"
        )
    seats = []
    for seat in requested:
        bot, options = seat.get("bot"), seat.get("options") or {}
        if bot is None:
            if options:
                raise validation_error("seats", "options are for bot seats")
            seats.append(Seat("free"))
            continue
        if bot not in bots.NAMES:
            raise validation_error(
                "seats", f"unknown bot {bot!r}; choose from {', '.join(bots.BOTS)}"
            )
        problem = bots.check_options(bot, options)
        if problem:
            raise validation_error("seats", problem)
        seats.append(Seat.for_bot(bot, options))
    return tuple(seats)


class Lobby:
    def __init__(self, table: Table, people: People | None = None) -> None:
        self.table = table
        self.people = people

    def create(self, body: JSON) -> tuple[JSON, str]:
        """Create a game; returns its spectator view and the host token."""
        players, seed, position = body["players"], body.get("seed"), body.get("position")
        dealt_from = secrets.randbits(63) if seed is None else seed
        options, days = paced(body.get("options"))
        try:  # the engine checks the player count before anything is sized by it
            game = create_game(
                body["variant"],
                players=players,
                seed=dealt_from,
                options=options,
                position=position,
            )
        except SetupError as err:
            raise validation_error(err.field, err.message) from None
        seats = seats_of(body.get("seats") or [{}] * players, players)
        host = new_token()
        practice = seed is not None or position is not None
        rated = body.get("rated", False)
        if rated:
            self._check_rated(practice)
        fair = (
            Fairness(CHOSEN, seed=dealt_from, position=position) if practice else committed(players)
        )
        record, events = self.opened(secrets.token_hex(8), game, seats, token_hash(host), fair,
                                     unlisted=body.get("unlisted", False),
                                     rated=rated, days=days)  # fmt: skip
        if not self.table.store.create(record, events):
            raise RuntimeError(f"a game with id {record.id!r} exists already")
        self.table.schedule(record)
        return render(record, game, None), host

    def _check_rated(self, practice: bool) -> None:
        """A rated game is dealt by the server and kept: refuse one that cannot be."""
        if practice:
            raise validation_error("rated", "a rated game is dealt from a committed deal: "
                                            "give no seed and no position")  # fmt: skip
        if self.table.archive is None:
            raise Refusal("not_implemented", "this server keeps no ratings")

    def opened(
        self,
        game_id: str,
        game: Game,
        seats: tuple[Seat, ...],
        host: str,
        fairness: Fairness,
        rematch_of: str | None = None,
        unlisted: bool = False,
        rated: bool = False,
        tournament: JSON | None = None,
        days: int | None = None,
        duplicate: JSON | None = None,
        bot_seed: int | None = None,
    ) -> tuple[GameRecord, list[Event]]:
        """A new game's record and first events, started at once if no seat is open.
        With a committed deal, ``game`` is only a stand-in until then. ``days``: a
        days game (each person has that many days a turn)."""
        now = self.table.clock()
        record = GameRecord(
            id=game_id,
            variant=game.variant,
            players=game.players,
            status="waiting",
            version=0,
            practice=fairness.scheme == CHOSEN,
            created_at=now,
            updated_at=now,
            host=host,
            bot_seed=secrets.randbits(63) if bot_seed is None else bot_seed,
            seats=seats,
            game=game.to_dict(),
            rematch_of=rematch_of,
            fairness=fairness,
            unlisted=unlisted,
            rated=rated,
            tournament=tournament,
            days=days,
            duplicate=duplicate,
        )
        events: list[Event] = []
        record = stamped(record, [{"type": "created"}], events)
        record, _ = started_when_full(record, game, now, events)
        return record, events

    def list_games(
        self,
        status: str,
        variant: str | None,
        page: int,
        page_size: int,
        cursor: str | None = None,
    ) -> tuple[list[JSON], int, str | None]:
        """A lobby page: the games' summaries, how many games there are, and the
        cursor of the next page (None: the last). A cursor starts the page where
        the one before ended, however deep; ``page`` counts from the top. Games
        being played are ranked instead (``watch_list``)."""
        if status == "active":
            return self.watch_list(variant, page, page_size)
        after = None if cursor is None else read_cursor(cursor)
        offset = 0 if after is not None else (page - 1) * page_size
        records, total = self.table.store.list_games(status, variant, offset, page_size, after)
        last = records[-1] if len(records) == page_size else None
        following = None if last is None else cursor_after(last.updated_at, last.id)
        return [summary(r) for r in records], total, following

    def watch_list(
        self, variant: str | None, page: int, page_size: int
    ) -> tuple[list[JSON], int, None]:
        """The public games being played, to watch: of the ``WATCHED`` most recently
        moved, the best rated first (by the mean rating of their seated accounts;
        games of nobody rated last), each with its spectators."""
        records, total = self.table.store.list_games("active", variant, 0, WATCHED)
        records.sort(key=lambda r: (r.strength is None, -(r.strength or 0), -r.updated_at))
        shown = records[(page - 1) * page_size : page * page_size]
        watching = self.table.store.spectators([r.id for r in shown]) if shown else {}
        games = [{**summary(r), "rating": r.strength, "spectators": watching[r.id]} for r in shown]
        return games, min(total, WATCHED), None

    def join(
        self,
        game_id: str,
        name: str | None,
        seat: int | None,
        entropy: str | None = None,
        token: str | None = None,
    ) -> JSON:
        """Take a free human seat, adding ``entropy`` to a committed deal; the game
        starts when the last seat is taken. Sent with a player key (``token``), the
        seat is linked to that player, whose name it takes unless one is given."""
        caller = self.table.caller(token)
        player = None
        if caller.player_id is not None:
            assert self.table.archive is not None  # a key was found in it
            player = self.table.archive.accounts.player(caller.player_id)
        shown = name or (player["name"] if player else None)
        if shown is None:
            raise validation_error("name", "give a name, or join with your player key")
        token = new_token()
        ratings = self.table.ratings_of(caller.player_id)

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            if record.ended:
                raise Refusal("game_not_active", f"the game is {record.status}")
            if seat is not None and not 0 <= seat < record.players:
                raise validation_error("seat", f"seat must be from 0 to {record.players - 1}")
            if record.rated:
                check_rated_join(caller.player_id, entropy)
            free = held_for(record, caller.player_id) or record.free_seats()
            if not free:
                raise Refusal("game_full", "every seat of this game is taken")
            chosen = free[0] if seat is None else seat
            if chosen not in free:
                raise Refusal("seat_taken", f"seat {chosen} is already taken")
            linked = [i for i, s in enumerate(record.seats)
                      if s.player_id == caller.player_id and s.state != "reserved"]  # fmt: skip
            if caller.player_id is not None and linked:
                raise Refusal("seat_taken", f"your account holds seat {linked[0]} of this game")
            rating = None if player is None else ratings.get(record.variant, START_RATING)
            taken = replace(record.seats[chosen].taken_by(shown, token_hash(token)),
                            player_id=caller.player_id, rating=rating)  # fmt: skip
            record = replace(record.with_seat(chosen, taken),
                             fairness=with_entropy(record, chosen, entropy))  # fmt: skip
            events: list[Event] = []
            record = stamped(record, [{"type": "joined", "seat": chosen, "name": shown}], events)
            record, game = started_when_full(record, self.table.game(record), self.table.clock(),
                                             events)  # fmt: skip
            return Change(record, events), {
                "seat": chosen,
                "team": game.team_of(chosen),
                "token": token,
            }

        joined = self.table.update(game_id, decide)
        if caller.player_id is not None:
            self.table.store.index_player_game(caller.player_id, game_id, self.table.clock())
        if self.people is not None:  # taking a seat is a sign of life
            self.people.seen(game_id, joined["seat"])
        return joined

    def leave(self, game_id: str, token: str | None) -> JSON:
        """A person leaves: before the start the seat is open again, after it the
        stand-in bot plays it to the end. The token stops working."""
        return self._leave(game_id, self.table.caller(token))

    def leave_for(self, game_id: str, player_id: str) -> JSON:
        """The account's seat leaves the game, as its person would (a closed account)."""
        return self._leave(game_id, Caller(None, player_id))

    def _leave(self, game_id: str, caller: Caller) -> JSON:
        def decide(record: GameRecord) -> tuple[Change, JSON]:
            seat = own_seat(record, caller)
            if record.ended:
                raise Refusal("game_not_active", f"the game is {record.status}")
            if record.status == "waiting":  # open again, with none of its entropy
                gone = Seat("free")
                record = replace(record, fairness=with_entropy(record, seat, None))
            else:
                gone = replace(record.seats[seat], state="left", bot=STAND_IN, token=None)
            events: list[Event] = []
            record = stamped(record.with_seat(seat, gone), [{"type": "left", "seat": seat}], events)
            game = self.table.game(record)
            if record.status == "active":
                record = settled(record, game, self.table.clock(), events)
            return Change(record, events), render(record, game, None)

        return self.table.update(game_id, decide)

    def cancel(self, game_id: str, token: str | None) -> JSON:
        """Cancel a game that has not ended: before the deal, its host's token alone;
        after it, every person at the table, each with their own token (a host who
        is losing cannot wipe the game)."""
        caller = self.table.caller(token)

        def decide(record: GameRecord) -> tuple[Change, JSON]:
            host = caller.token is not None and matches(caller.token, record.host)
            seat = _person_of(record, caller)
            waiting = record.status == "waiting"
            # Who asks comes before what the game allows: a stranger's token is refused
            # as such whatever state the game is in.
            if waiting and not host:
                raise Refusal("unauthorized", "only the host token may cancel this game")
            if not waiting and seat is None and not host:
                raise Refusal("unauthorized", "send your seat's token to agree to cancel")
            if record.ended:
                raise Refusal("game_not_active", f"the game is already {record.status}")
            events: list[Event] = []
            if waiting:
                return self._cancelled(record, events)
            if seat is None:
                raise Refusal("game_started", "the game has been dealt: only the people at "
                              "the table can cancel it now, every one of them")  # fmt: skip
            if record.compared:  # its result is the tournament's or the match's
                raise Refusal("forbidden", "a tournament or duplicate game cannot be "
                                           "cancelled: resign instead")  # fmt: skip
            if seat in record.cancel_agreed:  # said before: nothing changes
                return Change(None), render(record, self.table.game(record), None)
            agreed = tuple(sorted({*record.cancel_agreed, seat}))
            record = stamped(replace(record, cancel_agreed=agreed),
                             [{"type": "cancel_agreed", "seat": seat}], events)  # fmt: skip
            people = {i for i, s in enumerate(record.seats) if s.state in ("human", "away")}
            if people <= set(agreed):
                return self._cancelled(record, events)
            return Change(record, events), render(record, self.table.game(record), None)

        return self.table.update(game_id, decide)

    def _cancelled(self, record: GameRecord, events: list[Event]) -> tuple[Change, JSON]:
        record = ended(stamped(record, [{"type": "cancelled"}], events), "cancelled", events)
        return Change(record, events), render(record, self.table.game(record), None)


def paced(options: JSON | None) -> tuple[JSON | None, int | None]:
    """A game's options without ``days`` (the server's pace, not the rules'), and
    ``days`` (checked: one of ``model.pace.DAYS``, never with ``turn_seconds``)."""
    if not options or options.get("days") is None:
        return options, None
    days = options["days"]
    if days not in DAYS or isinstance(days, bool):
        raise validation_error("days", f"days a turn are one of {', '.join(map(str, DAYS))}")
    if options.get("turn_seconds") is not None:
        raise validation_error("days", "a game has days a turn or a turn clock, not both")
    return {k: v for k, v in options.items() if k != "days"}, int(days)


def _person_of(record: GameRecord, caller: Caller) -> int | None:
    """The seat of a person at the table the caller holds, if any."""
    try:
        seat = seat_of(record, caller)
    except Refusal:
        return None
    return seat if seat is not None and record.seats[seat].state in ("human", "away") else None


def held_for(record: GameRecord, player_id: str | None) -> list[int]:
    """The seats held for a player's account (a quick pairing seated them)."""
    if player_id is None:
        return []
    seats = enumerate(record.seats)
    return [
        i for i, s in seats if s.state == "reserved" and not s.previous and s.player_id == player_id
    ]


def check_rated_join(player_id: str | None, entropy: str | None) -> None:
    """A seat of a rated game is a player's, and its person adds to the deal."""
    if player_id is None:
        raise validation_error("authorization", "a rated game seats only players: send your "
                                                "player key as 'Bearer <key>'")  # fmt: skip
    if entropy is None:
        raise validation_error("entropy", "a rated game is dealt with every person's entropy: "
                                          "send some (1 to 64 hex digits)")  # fmt: skip


def committed(players: int, dealer: int | None = None) -> Fairness:
    """A new committed deal: a secret server seed, room for each seat's entropy, and
    the dealer if one is fixed in advance (committed to with the seed)."""
    seed = server_seed()
    return Fairness(SCHEME, commitment(seed, dealer), seed, (None,) * players, dealer)


def with_entropy(record: GameRecord, seat: int, entropy: str | None) -> Fairness | None:
    """The deal with ``seat``'s entropy set (or cleared, with None, when the seat is
    given up before the deal)."""
    fair = record.fairness
    if fair is None or fair.server_seed is None:
        return fair
    given = list(fair.entropy)
    given[seat] = None if entropy is None else entropy.lower()
    return replace(fair, entropy=tuple(given))
