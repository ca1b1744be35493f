"""What closing or deleting an account does to what the live store holds of it.

The archive's part (keys refused, webhooks removed, tournament entries taken
out) is done in the same transaction that closes or deletes the account
(``archive.moderation``). What the live store holds is settled here: its
pending challenges, sent and received, are cancelled; its waiting seek is
withdrawn; and every live game it sits in ends for it as ``leave`` does (the
stand-in plays its seat on). A deletion settles at once, in its request. An
operator closes an account from another process (``stacks-api admin``), so
the workers' chores also ``sweep`` the accounts closed lately and settle each:
settling is idempotent, and a worker that starts looks back 30 days.
"""

from __future__ import annotations

import contextlib

from ..model.challenges import Answer
from ..model.refusals import Refusal
from .lobby import Lobby
from .table import Table

LOOK_BACK_S = 30 * 86_400.0  # how far back a new worker looks for accounts closed meanwhile
OVERLAP_S = 60.0  # each sweep looks again this far before the last (clocks of hosts differ)


class Closures:
    def __init__(self, table: Table, lobby: Lobby) -> None:
        self.table = table
        self.lobby = lobby
        self._since: float | None = None

    def settle(self, player_id: str) -> None:
        """Cancel the account's pending challenges, withdraw its seek, and leave every
        live game it sits in."""
        store, now = self.table.store, self.table.clock()
        for challenge in store.challenges.of(player_id):
            if challenge.pending:
                store.challenges.settle(challenge.id, "cancelled", Answer(answered_at=now))
        seek = store.seeks.latest(player_id)
        if seek is not None and seek.waiting:
            store.seeks.close(seek.id, "withdrawn", now)
        for game_id in store.player_games(player_id):
            record = store.load(game_id)
            if record is None or record.ended:
                continue
            seats = [s for s in record.seats if s.player_id == player_id]
            if any(s.state in ("human", "away", "reserved") for s in seats):
                with contextlib.suppress(Refusal):  # ended or left meanwhile
                    self.lobby.leave_for(game_id, player_id)

    def sweep(self, now: float) -> int:
        """Settle every account closed since the last sweep; how many."""
        archive = self.table.archive
        if archive is None:
            return 0
        since = (now - LOOK_BACK_S) if self._since is None else self._since - OVERLAP_S
        closed = archive.accounts.closed_since(since)
        for player_id in closed:
            self.settle(player_id)
        self._since = now
        return len(closed)
