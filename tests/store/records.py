"""Game records for the store's tests: the store keeps whatever the service writes,
so a record here only needs the fields the store itself reads."""

import time

from stacks_api.model.record import GameRecord, Seat


def game_record(game_id, *, status, version, created_at=None, variant="sequence", due_at=None):
    when = time.time() if created_at is None else created_at
    return GameRecord(
        id=game_id, variant=variant, players=2, status=status, version=version, practice=False,
        created_at=when, updated_at=when, host="h", bot_seed=1, seats=(Seat("free"),) * 2,
        game={"payload": [1, 2, 3]}, due_at=due_at,
    )  # fmt: skip
