"""Ended games' analyses in the archive: written once, read whole."""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import Engine, select

from ..model.record import JSON
from .errors import connected
from .games import insert_ignoring
from .models import GameAnalysis
from .packing import pack, unpack


class AnalysisArchive:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def get(self, game_id: str) -> JSON | None:
        with connected(self.engine) as connection:
            blob = connection.scalar(
                select(GameAnalysis.document).where(GameAnalysis.game_id == game_id)
            )
        return None if blob is None else unpack(blob)

    def put(self, game_id: str, analysis: JSON) -> None:
        """Keep the game's analysis (a second one, from a racing worker, is dropped)."""
        row = {"game_id": game_id, "document": pack(analysis), "created_at": self.clock()}
        with connected(self.engine, write=True) as connection:
            connection.execute(insert_ignoring(self.engine, GameAnalysis), [row])
