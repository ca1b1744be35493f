"""One event stream per account: what happens to all of a player's games, so a
client (or an outside bot) follows them without polling.

The stream is derived from what the server keeps anyway (the player's games in
the live store, their latest seek, the archive's ratings): each ``poll`` compares
them with what the stream has told so far and tells what changed. Nothing is
written for it, so nothing can be lost: a client that reconnects with the time
of the last event it saw (its Last-Event-ID) is told every game that ended
since, and then the state of each live game again.

Events: ``paired`` (a seek found its game: join it with your key), ``seek_closed``
(it expired or was withdrawn), ``challenge`` (another player challenges you),
``challenge_answered`` (a challenge of yours was accepted, with its game, or
declined, cancelled or expired), ``game_started``, ``your_turn`` (once per version
that waits for you), ``game_ended`` (with your result and, in a rated game, your
rating's change once the archive has rated it), ``tournament_started`` and
``tournament_ended`` (a tournament the player entered), ``tournament_round`` (with
the game of theirs a round made), ``webhook_disabled`` (a webhook failed every
delivery for a day), ``turn_reminder`` (a days game waits for the player, and a
quarter of their time or 24 hours, whichever is less, remains: once a version),
``chat`` (a line another player said at one of the player's tables),
``account_closed`` (the last event: the account was closed or deleted). The
account's tournaments and webhooks are looked at every ``ACCOUNT_CHECK_S``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.pace import reminder_at
from ..model.record import JSON, GameRecord, HistoryQuery
from ..model.seeks import Seek
from ..model.tournaments import Tournament
from .lobby import held_for
from .rating import RatingDesk
from .table import Table

ACCOUNT_CHECK_S = 5.0
RATING_WAIT_S = 60.0  # an ended rated game is told without its rating after this
HISTORY_LIMIT = 100  # ended games told on a reconnect, at most


@dataclass
class Told:
    """What one stream has told its client so far."""

    started: set[str] = field(default_factory=set)
    turns: dict[str, int] = field(default_factory=dict)  # game -> version told
    ended: set[str] = field(default_factory=set)
    seek: tuple[str, str] | None = None  # (seek id, its status told)
    challenges: dict[str, str] = field(default_factory=dict)  # id -> its status told
    # The account itself, looked at every ACCOUNT_CHECK_S: webhooks disabled after
    # ``webhooks_since`` are told; a closed or deleted account ends the stream.
    webhooks_since: float = 0.0
    checked_at: float = 0.0
    closed: bool = False
    tournaments: dict[str, str] = field(default_factory=dict)  # id -> its status told
    reminded: dict[str, int] = field(default_factory=dict)  # game -> version reminded of
    chat_read: dict[str, int] = field(default_factory=dict)  # game -> version read up to


class AccountFeed:
    def __init__(self, table: Table, ratings: RatingDesk) -> None:
        self.table = table
        self.ratings = ratings

    def first(self, player_id: str, since: float | None) -> tuple[Told, list[JSON]]:
        """A new stream's state and its first events: with ``since`` (a reconnect),
        every game of the player that ended after it; then the live games' state."""
        told, events = Told(webhooks_since=since or self.table.clock()), []
        seek = self.table.store.seeks.latest(player_id)
        if seek is not None and not self._news(seek, player_id, since):
            told.seek = (seek.id, seek.status)
        for challenge in self.table.store.challenges.of(player_id):
            status = challenge.status_at(self.table.clock())
            closed_at = challenge.answered_at or challenge.expires_at
            news = status == "pending" or (since is not None and closed_at > since)
            if not news:
                told.challenges[challenge.id] = status
        if self.table.archive is not None:
            for tournament in self.table.archive.tournaments.of_player(player_id):
                told.tournaments[tournament.id] = _told_status(tournament, since)
        records = self._records(player_id)
        for record in records:
            if record.ended and (since is None or record.updated_at <= since):
                told.ended.add(record.id)
                told.started.add(record.id)
        if since is not None and self.table.archive is not None:
            query = HistoryQuery(player_id, since=since)
            live = {r.id for r in records}
            for game in self.table.archive.games.history(query, HISTORY_LIMIT):
                if game["id"] not in live:
                    told.started.add(game["id"])
                    events.append(self._ended_from_summary(player_id, game))
                    told.ended.add(game["id"])
        return told, events + self.poll(player_id, told)

    def poll(self, player_id: str, told: Told) -> list[JSON]:
        """What changed since the stream last told (``told`` is brought up to date)."""
        events = self._seek(player_id, told) + self._challenges(player_id, told)
        now = self.table.clock()
        if now - told.checked_at >= ACCOUNT_CHECK_S:
            told.checked_at = now
            events += self._account(player_id, told)
        for record in self._records(player_id):
            seat = next((i for i, s in enumerate(record.seats)
                         if s.player_id == player_id and s.state != "reserved"), None)  # fmt: skip
            if seat is None or record.id in told.ended:
                continue
            if _dealt(record) and record.id not in told.started:
                told.started.add(record.id)
                events.append({"type": "game_started", **_game(record, seat)})
                if record.tournament is not None:
                    events.append({"type": "tournament_round", **_game(record, seat),
                                   "tournament_id": record.tournament["id"],
                                   "round": record.tournament["round"]})  # fmt: skip
            if record.status == "active":
                if seat in record.to_move and told.turns.get(record.id) != record.version:
                    told.turns[record.id] = record.version
                    turn = {"version": record.version, "deadline": record.clock}
                    events.append({"type": "your_turn", **_game(record, seat), **turn})
                if _to_remind(record, seat, now) and told.reminded.get(record.id) != record.version:
                    told.reminded[record.id] = record.version
                    turn = {"version": record.version, "deadline": record.turn_deadline}
                    events.append({"type": "turn_reminder", **_game(record, seat), **turn})
                events += self._chat(record, seat, told)
            elif record.ended:
                ended = self._ended(record, seat, now)
                if ended is not None:
                    told.ended.add(record.id)
                    events.append(ended)
        return events

    def _chat(self, record: GameRecord, seat: int, told: Told) -> list[JSON]:
        """Lines said at the player's table by others since last told (a game first
        seen: none of its old lines)."""
        read = told.chat_read.setdefault(record.id, record.version)
        if record.version <= read:
            return []
        told.chat_read[record.id] = record.version
        return [{"type": "chat", **_game(record, seat), "version": e["version"],
                 "name": e.get("name"), "text": e["text"]}
                for e in self.table.store.events_after(record.id, read)
                if e["type"] == "chat" and e.get("seat") not in (None, seat)]  # fmt: skip

    def _account(self, player_id: str, told: Told) -> list[JSON]:
        """Webhooks disabled since last told, and the account's closing."""
        archive = self.table.archive
        if archive is None:
            return []
        player = archive.accounts.player(player_id)
        if player is None or player["closed"]:
            told.closed = True
            return [{"type": "account_closed"}]
        events = self._tournaments(player_id, told)
        for hook in archive.webhooks.disabled_since(player_id, told.webhooks_since):
            told.webhooks_since = max(told.webhooks_since, hook["disabled_at"])
            events.append({"type": "webhook_disabled", "webhook": hook["id"], "url": hook["url"],
                           "disabled_at": hook["disabled_at"]})  # fmt: skip
        return events

    def _tournaments(self, player_id: str, told: Told) -> list[JSON]:
        """The player's tournaments that started or ended since last told."""
        assert self.table.archive is not None
        events = []
        for tournament in self.table.archive.tournaments.of_player(player_id):
            status, before = tournament.status, told.tournaments.get(tournament.id)
            if status == before:
                continue
            told.tournaments[tournament.id] = status
            shown = {"tournament_id": tournament.id, "name": tournament.name,
                     "variant": tournament.variant}  # fmt: skip
            if status in ("running", "finished") and before in (None, "upcoming"):
                events.append({"type": "tournament_started", **shown})
            if status == "finished":
                events.append({"type": "tournament_ended", **shown})
        return events

    def _news(self, seek: Seek, player_id: str, since: float | None) -> bool:
        """Whether a new stream tells the player's latest seek: it closed after
        ``since``, or (a first connection) it was paired into a game whose seat
        still waits for the player."""
        if since is not None:
            return seek.closed_at is not None and seek.closed_at > since
        if seek.status != "paired" or seek.game_id is None:
            return False
        record = self.table.store.load(seek.game_id)
        return record is not None and bool(held_for(record, player_id))

    def _seek(self, player_id: str, told: Told) -> list[JSON]:
        seek = self.table.store.seeks.latest(player_id)
        if seek is None or seek.waiting or told.seek == (seek.id, seek.status):
            return []
        told.seek = (seek.id, seek.status)
        if seek.status == "paired":
            return [{"type": "paired", "seek": seek.id, "game_id": seek.game_id, "seat": seek.seat,
                     "variant": seek.variant, "rated": seek.rated}]  # fmt: skip
        return [{"type": "seek_closed", "seek": seek.id, "status": seek.status}]

    def _challenges(self, player_id: str, told: Told) -> list[JSON]:
        """Challenges received, and answers to the player's own, not told yet."""
        events = []
        for challenge in self.table.store.challenges.of(player_id):
            status = challenge.status_at(self.table.clock())
            before = told.challenges.get(challenge.id)
            if status == before:
                continue
            told.challenges[challenge.id] = status
            current = {**challenge.shown(), "status": status}
            if status == "pending" and challenge.challenged == player_id:
                events.append({"type": "challenge", "challenge": current})
            elif status != "pending":
                events.append({"type": "challenge_answered", "challenge": current})
        return events

    def _records(self, player_id: str) -> list[GameRecord]:
        found = (self.table.store.load(g) for g in self.table.store.player_games(player_id))
        return [r for r in found if r is not None]

    def _ended(self, record: GameRecord, seat: int, now: float) -> JSON | None:
        """The end of a game, once its rating is known (None: wait for it)."""
        rating = None
        if record.rated:
            answer = self.ratings.game(record.id)
            if answer["state"] == "pending" and now < record.updated_at + RATING_WAIT_S:
                return None
            rating = next((_change(c) for c in answer["changes"] if c["seat"] == seat), None)
        score = None if record.result is None else record.result.scores[seat]
        return {"type": "game_ended", **_game(record, seat), "status": record.status,
                "score": score, "rating": rating}  # fmt: skip

    def _ended_from_summary(self, player_id: str, game: JSON) -> JSON:
        seat = next(s for s in game["seats"] if s["player_id"] == player_id)
        rating = None
        if game["rated"]:
            changes = self.ratings.game(game["id"])["changes"]
            rating = next((_change(c) for c in changes if c["seat"] == seat["seat"]), None)
        return {"type": "game_ended", "game_id": game["id"], "variant": game["variant"],
                "seat": seat["seat"], "rated": game["rated"], "status": game["status"],
                "score": seat["score"], "rating": rating}  # fmt: skip


def _told_status(tournament: Tournament, since: float | None) -> str:
    """What a new stream counts as told of a tournament: everything, but (with
    ``since``, a reconnect) a start or an end after it."""
    status = tournament.status
    if since is None:
        return status
    if status == "finished" and (tournament.ended_at or 0) > since:
        return "running" if tournament.starts_at <= since else "upcoming"
    if status == "running" and tournament.starts_at > since:
        return "upcoming"
    return status


def _dealt(record: GameRecord) -> bool:
    """Whether the game was dealt (a table cancelled while it waited never was; one
    cancelled after its deal was agreed to by its people)."""
    return record.status in ("active", "finished") or bool(record.cancel_agreed)


def _to_remind(record: GameRecord, seat: int, now: float) -> bool:
    """Whether a days game waits for ``seat`` and its deadline is near enough to say
    so (``model.pace.reminder_at``: before any vacation is spent)."""
    deadline = record.turn_deadline
    if record.days is None or deadline is None or seat not in record.to_move:
        return False
    return now >= reminder_at(deadline, record.days)


def _game(record: GameRecord, seat: int) -> JSON:
    return {"game_id": record.id, "variant": record.variant, "seat": seat, "rated": record.rated}


def _change(change: JSON) -> JSON:
    return {k: change[k] for k in ("before", "after", "change", "provisional")}
