"""Analyses as players ask for them: the request only asks, a worker computes.

``GET /games/{id}/analysis`` answers the kept analysis of a finished game; if
there is none yet it queues one (once) and says so (202). A worker takes the
queued games one at a time, analyses each from its record (``analysis``) and
keeps the result in the archive beside the record.
"""

from __future__ import annotations

import logging
import zlib

from ..model.record import JSON
from ..model.refusals import Refusal
from ..runtime.offload import offload
from .analysis import analyse
from .ports import Archive
from .table import Table

log = logging.getLogger(__name__)


class AnalysisDesk:
    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def archive(self) -> Archive:
        return self.table.archive_for("analyses")

    def ask(self, game_id: str) -> JSON | None:
        """The game's analysis, or None: it is queued (or the game is archived first)."""
        record = self.table.load(game_id)
        if record.status != "finished":
            raise Refusal("game_not_active", f"a finished game is analysed; this one is "
                                             f"{record.status}")  # fmt: skip
        found = self.archive.analyses.get(game_id)
        queued = found is None and self.archive.games.archived([game_id])
        if queued and self.table.store.analyses.ask(game_id):
            self.table.jobs.wake()  # the embedded store's workers start on first use
        return found

    def compute(self, limit: int = 1) -> int:
        """Analyse queued games (the workers' part); how many were analysed."""
        made = 0
        for game_id in self.table.store.analyses.claim(limit):
            document = self.archive.games.document(game_id)
            if document is None or self.archive.analyses.get(game_id) is not None:
                continue
            seed = zlib.crc32(game_id.encode())
            try:
                result = offload(analyse, document, seed)
            except RuntimeError:  # a record that does not replay: nothing to analyse
                log.exception("analysis: game %s", game_id)
                continue
            self.archive.analyses.put(game_id, result)
            made += 1
        return made
