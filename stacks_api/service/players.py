"""Players: accounts and their keys (kept in the archive), and each player's
history, live games from the live store and ended ones from the archive."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..model.record import JSON, GameRecord, HistoryQuery
from ..model.refusals import Refusal
from .closures import Closures
from .cursors import cursor
from .ports import Archive
from .seals import closed
from .table import Table

RESULTS = ("won", "lost", "drawn")
SCORES = {"won": 1.0, "lost": 0.0, "drawn": 0.5}


class Players:
    def __init__(self, table: Table, closures: Closures) -> None:
        self.table = table
        self.closures = closures

    @property
    def archive(self) -> Archive:
        return self.table.archive_for("accounts")

    def create(self, name: str, label: str) -> tuple[JSON, str]:
        """A new account and its first key (shown only in this answer)."""
        player, key = self.archive.accounts.create(name, label)
        return {**player, "ratings": {}}, key

    def me(self, token: str | None) -> str:
        """The player whose key sent the request."""
        player = self.table.caller(token).player_id
        if player is None:
            raise Refusal("unauthorized", "send your player key as 'Bearer <key>'")
        return player

    def become_bot(self, player_id: str) -> JSON:
        """Make an account that has played no game a bot account, for good; its
        profile."""
        played = self.table.store.player_games(player_id) or self.archive.games.history(
            HistoryQuery(player_id), 1
        )
        if played:
            raise Refusal("has_played", "only an account that has played no game can become "
                                        "a bot account")  # fmt: skip
        self.archive.accounts.set_bot(player_id)
        return self.profile(player_id)

    def profile(self, player_id: str) -> JSON:
        found = self.archive.accounts.player(player_id)
        if found is None:
            raise Refusal("not_found", f"no player with id {player_id!r}")
        if found["deleted"]:
            raise Refusal("player_deleted", f"the player {player_id!r} deleted their account")
        return {**found, "ratings": self.archive.ratings.of(player_id)}

    def search(self, text: str, limit: int) -> list[JSON]:
        """Open accounts whose name holds ``text``, the closest first, with their
        ratings (provisional ones too: a newcomer is found before they rank)."""
        found = self.archive.accounts.search(text, limit)
        ratings = self.archive.ratings.of_many([p["id"] for p in found])
        return [{**p, "ratings": ratings[p["id"]]} for p in found]

    def mine(self, player_id: str) -> JSON:
        """The caller's own account: its profile, its vacation bank (whole days) and
        how many games wait for it."""
        profile = self.profile(player_id)
        bank = self.archive.vacations.banks([player_id]).get(player_id, 0.0)
        return {**profile, "vacation_days": int(bank), "turn_count": len(self.waiting(player_id))}

    def waiting(self, player_id: str) -> list[JSON]:
        """The live games that wait for the player to act, nearest deadline first
        (games without one last, oldest change first)."""
        found = []
        for game_id in self.table.store.player_games(player_id):
            record = self.table.store.load(game_id)
            if record is None or record.status != "active":
                continue
            mine = (i for i, s in enumerate(record.seats)
                    if s.player_id == player_id and s.state in ("human", "away"))  # fmt: skip
            seat = next(mine, None)
            if seat is None or seat not in record.to_move:
                continue
            found.append({
                "id": record.id, "variant": record.variant, "seat": seat,
                "version": record.version, "deadline": record.clock, "days": record.days,
                "rated": record.rated, "tournament": record.tournament,
                "opponents": [s.name for i, s in enumerate(record.seats) if i != seat],
                "updated_at": record.updated_at,
            })  # fmt: skip
        found.sort(key=lambda g: (g["deadline"] is None, g["deadline"] or g["updated_at"]))
        return found

    def delete(self, player_id: str) -> None:
        """Delete the account (``archive.moderation``: keys, webhooks, tournaments),
        once none of its games is live or waits to be archived; then what the live
        store holds of it is settled (``closures``: challenges, seek) and the live
        store's copies of its ended games are dropped (read from the archive after).
        Should this process die between the two, the workers' sweep settles it."""
        store, ended = self.table.store, []
        for game_id in store.player_games(player_id):
            record = store.load(game_id)
            if record is None:
                continue
            if not record.ended and any(s.player_id == player_id for s in record.seats):
                # Its seat would keep the name until the game ends: wait for the end.
                raise Refusal("games_live", f"game {game_id} you sat in is still being played: "
                                            "delete your account once it ended")  # fmt: skip
            if record.ended:
                ended.append(game_id)
        for game_id in ended:
            if not store.forget(game_id):
                raise Refusal("games_live", f"game {game_id} has just ended and is being "
                                            "archived: try again in a few seconds")  # fmt: skip
        self.archive.moderation.delete(player_id)
        self.table.store.revocations.bump()  # its keys and tokens' streams close
        self.closures.settle(player_id)

    def export_account(self, player_id: str) -> Iterator[JSON]:
        """Everything kept about the account, one object a line: its profile, keys,
        ratings, webhooks and reports, then every archived game's record."""
        return self.archive.moderation.export(player_id, self.archive.games.export)

    def report(self, reporter_id: str, player_id: str, reason: str, game_id: str | None) -> JSON:
        """A report for the operators (at most a few a day per reporter)."""
        if reporter_id == player_id:
            raise Refusal("validation_error", "you cannot report yourself",
                          {"player_id": ["you cannot report yourself"]})  # fmt: skip
        self.profile(player_id)
        report = self.archive.moderation.report(reporter_id, player_id, reason, game_id)
        return {k: report[k] for k in ("id", "player_id", "game_id", "reason", "created_at")}

    def add_key(self, player_id: str, label: str) -> tuple[JSON, str]:
        return self.archive.accounts.add_key(player_id, label)

    def keys(self, player_id: str) -> list[JSON]:
        return self.archive.accounts.keys(player_id)

    def revoke(self, player_id: str, key_id: str) -> None:
        if not self.archive.accounts.revoke(player_id, key_id):
            raise Refusal("not_found", f"you hold no key with id {key_id!r}")
        self.table.store.revocations.bump()

    def games(self, query: HistoryQuery, limit: int) -> tuple[list[JSON], str | None]:
        """A page of the player's games and the cursor of the next page (None: this
        was the last). The first page starts with the games still being played;
        then come ended games, newest first, a keyset page at a time, filling the
        page to ``limit`` (at least one of them). An ended game the live store still
        holds is listed at its place among them until the archive has it, and never
        twice."""
        self.profile(query.player_id)
        live = self._live(query)
        playing = [g for g in live if g["ended_at"] is None] if query.after is None else []
        finished = {g["id"]: g for g in live if g["ended_at"] is not None}
        archived = self.archive.games.archived(list(finished)) if finished else set()
        pending = [g for game_id, g in finished.items() if game_id not in archived
                   and (query.after is None or _ended_key(g) < query.after)]  # fmt: skip
        room = max(1, limit - len(playing))
        ended = self.archive.games.history(query, room + 1)
        listed = {g["id"] for g in ended}
        merged = sorted(ended + [g for g in pending if g["id"] not in listed], key=_ended_key,
                        reverse=True)  # fmt: skip
        page = merged[:room]
        more = len(merged) > room
        return playing + page, cursor(*_ended_key(page[-1])) if more else None

    def export(self, query: HistoryQuery) -> Iterator[JSON]:
        """Every archived game of the player, as record documents, newest first."""
        self.profile(query.player_id)
        return self.archive.games.export(query)

    def _live(self, query: HistoryQuery) -> list[JSON]:
        """The player's games the live store still holds and the archive may not."""
        found = []
        for game_id in self.table.store.player_games(query.player_id):
            record = self.table.store.load(game_id)
            if record is None or not _matches(record, query):
                continue
            if record.ended and closed(self.table, record):
                continue  # a duplicate board's result shows once its group is over
            found.append(_summary(record))
        return found


def _ended_key(game: JSON) -> tuple[float, str]:
    """An ended game's place in a history, newest first (as the archive orders it)."""
    return float(game["ended_at"]), str(game["id"])


def _matches(record: GameRecord, query: HistoryQuery) -> bool:
    if query.variant not in (None, record.variant):
        return False
    if query.since is not None and record.created_at < query.since:
        return False
    if query.until is not None and record.created_at >= query.until:
        return False
    seats = record.seats
    mine = next((i for i, s in enumerate(seats) if s.player_id == query.player_id), None)
    if mine is None:  # left before the start: the seat is open again, the game not theirs
        return False
    if query.opponent is not None and all(s.player_id != query.opponent for s in seats):
        return False
    if query.result is None:
        return True
    return record.result is not None and record.result.scores[mine] == SCORES[query.result]


def _summary(record: GameRecord) -> JSON:
    """A live game in the shape of the archive's summaries."""
    scores: Any = record.result.scores if record.result else (None,) * record.players
    return {
        "id": record.id,
        "variant": record.variant,
        "status": record.status,
        "players": record.players,
        "rated": record.rated,
        "created_at": record.created_at,
        "ended_at": record.updated_at if record.ended else None,
        "seats": [
            {
                "seat": i,
                "name": s.name,
                "bot": s.bot if s.state == "bot" else None,
                "player_id": s.player_id,
                "score": scores[i],
            }
            for i, s in enumerate(record.seats)
        ],
    }
