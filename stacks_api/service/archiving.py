"""Ended games into the archive: the record document, the outbox's drain and the
sweep.

The write that ends a game (finished, or cancelled once dealt) puts it in the
outbox in the same atomic step (``Change.archive``). A worker claims a batch,
builds each game's ``Archived`` from the live store, inserts the batch in one
transaction (a game archived before is left as it is), commits, and only then
takes the games out of the outbox. A worker that dies mid-batch lets its claim
run out, and another archives the same games again: none lost, none twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib.metadata import version

from ..competition.ratings import standings
from ..engine import restore_game
from ..engine.replay import digest
from ..model.events import Event
from ..model.record import JSON, Archived, ArchivedSeat, GameRecord
from ..store import TTL_SECONDS, GameStore
from .changes import with_secrets
from .ports import GameArchive
from .rated_pairs import unused

log = logging.getLogger(__name__)
# Version 2: a person who left scores as a loser (``stacks_api.model.outcomes``); version 3:
# seats may have resigned, games may end aborted, and table chat is among the events.
FORMAT = {"name": "stacks-record", "version": 3}
CLAIM_S = 30.0  # by default a claimed batch is the worker's for this long
SWEEP_BATCH = 2000  # ended games a sweep looks at, per index


def archivable(before: GameRecord | None, after: GameRecord) -> bool:
    """Whether a change ends a game that is kept: it finished, or it was cancelled
    after the deal (a table cancelled while it waited for players is not)."""
    if before is None or before.ended or not after.ended:
        return False
    return after.status == "finished" or before.status == "active"


def document(record: GameRecord, events: list[Event], sealed: bool = False) -> JSON:
    """The game's record: everything needed to replay and check it with no server
    (docs/records.md). Only public events are in it (and a digest of the final
    spectator's view): cards never shown stay hidden, except through the deal's
    revealed secrets, which a ``sealed`` duplicate board (its group still plays)
    keeps back: its record has the commitment alone."""
    game = restore_game(record.game)
    fair = record.fairness.public(ended=not sealed) if record.fairness else {"scheme": "chosen"}
    if not sealed:
        events = with_secrets(record, events)
    seats = [
        {
            "seat": i,
            "name": seat.name,
            "player_id": seat.player_id,
            "team": game.team_of(i),
            "bot": seat.bot if seat.state == "bot" else None,
            "left": seat.state == "left",
            "resigned": seat.state == "resigned",
        }
        for i, seat in enumerate(record.seats)
    ]
    return {
        "format": FORMAT,
        "engine": {"name": "stacks_api", "version": version("stacks_api")},
        "id": record.id,
        "variant": record.variant,
        "players": record.players,
        "options": dict(game.options),
        "status": record.status,
        "rated": record.rated,
        **({"unrated": record.unrated} if record.unrated else {}),
        "seats": seats,
        "fairness": fair,
        "events": events,
        "result": None if record.result is None else record.result.to_json(),
        "final_sha256": digest(game.view(None)),
        "created_at": record.created_at,
        "ended_at": record.updated_at,
        "rematch_of": record.rematch_of,
        "tournament": record.tournament,
        **({"duplicate": record.duplicate} if record.duplicate else {}),
    }


def archived(record: GameRecord, events: list[Event]) -> Archived:
    """What the archive keeps of an ended game."""
    scores = record.result.scores if record.result is not None else (None,) * record.players
    seats = tuple(
        ArchivedSeat(
            i, seat.player_id, seat.name, seat.bot if seat.state == "bot" else None, scores[i]
        )
        for i, seat in enumerate(record.seats)
    )
    return Archived(
        id=record.id,
        variant=record.variant,
        status=record.status,
        players=record.players,
        rated=record.rated,
        created_at=record.created_at,
        ended_at=record.updated_at,
        document=document(record, events),
        seats=seats,
    )


class Archiving:
    """Moves ended games from the live store's outbox into the archive."""

    def __init__(
        self, store: GameStore, archive: GameArchive, claim_s: float = CLAIM_S,
        held: Callable[[GameRecord], bool] = lambda record: False,
    ) -> None:  # fmt: skip
        self.store = store
        self.archive = archive
        self.claim_s = claim_s
        # Games kept out of the archive for now (a duplicate board whose group still
        # plays): they stay claimed, and are looked at again once the claim runs out.
        self.held = held

    def drain(self, now: float, batch: int = 100) -> int:
        """Archive one batch of the outbox; how many games it held. Raises
        ``Unavailable`` when the store or the database is (the claim runs out and
        the games are tried again)."""
        claimed = self.store.claim_archiving(now, self.claim_s, batch)
        if not claimed:
            return 0
        games, gone = [], []
        for game_id in claimed:
            record = self.store.load(game_id)
            if record is None or not record.ended:
                gone.append(game_id)  # nothing left to archive (or not ended: a bug)
                continue
            if self.held(record):
                continue
            games.append(archived(record, self.store.events_after(game_id, 0)))
        self.archive.put(games)
        for game in games:
            if game.rated and not standings(game.document):
                unused(self.store, game.document)  # it rated nobody: its pairs' count back
        for game_id in [g.id for g in games] + gone:
            self.store.archived(game_id)
        if gone:
            log.warning("archiving: %d outbox entries had no ended game: %s", len(gone), gone)
        return len(claimed)

    def sweep(self, now: float) -> int:
        """Put back in the outbox every recently ended game that should be archived,
        is not, and lost its entry; how many."""
        ended = self.store.ended_games(now - TTL_SECONDS["finished"], SWEEP_BATCH)
        missing = sorted(set(ended) - self.archive.archived(ended))
        requeued = 0
        for game_id in missing:
            record = self.store.load(game_id)
            if record is None or not self._kept(record):
                continue
            requeued += self.store.requeue_archiving(game_id)
        if requeued:
            log.warning("archiving: %d ended game(s) had lost their outbox entry", requeued)
        return requeued

    def _kept(self, record: GameRecord) -> bool:
        """Whether an ended game is one the archive keeps: finished, or dealt."""
        if record.status == "finished":
            return True
        return any(e["type"] == "started" for e in self.store.events_after(record.id, 0))
