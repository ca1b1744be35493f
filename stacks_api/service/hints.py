"""Hints: the request only asks, a background worker computes.

``GET /games/{id}/hint`` looks for the hint of the seat's current version; if no
worker has made it yet, it queues it (once) and says so (202). The workers take
queued hints between their other chores and compute each from the seat's own
view with the strong bot's search (``bots.hints``), so a hint never knows more
than the seat sees. Rated games have none.
"""

from __future__ import annotations

import random

from ..bots.hints import hint
from ..model.record import JSON
from ..model.refusals import Refusal
from ..runtime.offload import offload
from .table import Table

BATCH = 4  # hints a worker computes before it looks at its other chores


def hint_key(game_id: str, seat: int, version: int) -> str:
    return f"{game_id}:{seat}:{version}"


class Hints:
    def __init__(self, table: Table) -> None:
        self.table = table

    def ask(self, game_id: str, token: str | None) -> tuple[JSON | None, int]:
        """The seat's hint for the game's current version (None: not made yet, and now
        asked for), and that version."""
        caller = self.table.caller(token)
        record = self.table.load(game_id)
        seat = self.table.acting_seat(record, caller)
        if record.rated or record.compared:
            what = "rated" if not record.compared else "tournament and duplicate"
            raise Refusal("hints_off", f"hints are off in {what} games")
        if record.status != "active" or seat not in record.to_move:
            raise Refusal("not_your_turn", "a hint is for a moment your seat must act")
        key = hint_key(game_id, seat, record.version)
        found = self.table.store.hints.get(key)
        if found is None and self.table.store.hints.ask(key):
            self.table.jobs.wake()  # the embedded store's workers start on first use
        return found, record.version

    def compute(self, limit: int = BATCH) -> int:
        """Compute queued hints (the workers' part); how many were made."""
        made = 0
        for key in self.table.store.hints.claim(limit):
            game_id, seat_text, version_text = key.rsplit(":", 2)
            seat, version = int(seat_text), int(version_text)
            record = self.table.store.load(game_id)
            if record is None or record.version != version or seat not in record.to_move:
                continue  # the game moved on: nobody waits for this hint any more
            view = self.table.game(record).view(seat)
            rng = random.Random(record.bot_seed ^ version)
            moves = offload(hint, view, rng)
            self.table.store.hints.put(key, {"version": version, "moves": moves})
            made += 1
        return made
