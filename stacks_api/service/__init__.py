"""The game server's domain, in parts with one job each; no HTTP in here.

- ``lobby``: create a game, list games, take a seat, leave, cancel (``lobby.py``);
- ``rematch``: the same table's next game (``rematch.py``); ``concede``: resign and
  abort (``concede.py``); ``chat``: table chat (``chat.py``);
- ``play``: a seat's view, one action with its idempotency, the events (``play.py``);
- ``turns``: the background's moves: bots, stand-ins, expired windows and turn clocks
  (``turns.py``);
- ``archiving``: ended games from the outbox into the archive, and the record
  document (``archiving.py``); ``players``: accounts, keys, histories (``players.py``);
- ``ratings``: profiles' ratings, the leaderboard, a game's rating changes (``rating.py``);
  ``pairing``: quick pairing of players who ask for a game (``pairing.py``);
  ``challenges``: one player asking another for a game (``challenges.py``);
  ``hints``: asked by requests, computed by the workers (``hints.py``); ``analyses``
  of finished games, the same way and kept in the archive (``analysis_desk.py``);
  ``notifications``: account events told on the channels that reach an account
  with no stream open (``notifications.py``), of which ``webhooks`` is one;
- ``views.py`` renders what they show, ``changes.py`` makes each change of a record,
  ``table.py`` is the write path they share, ``ports.py`` the interface to the rest.

A game lives in the store as one ``GameRecord`` (``stacks_api.model.record``). Every
change bumps its version by one and appends that change's public events, each
stamped with the version, in the same atomic store write, together with the
game's entry in the work queue. Requests never compute a bot move: a background
runner claims each due game and calls ``turns.advance``.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from .. import variants
from ..model.record import JSON
from ..model.refusals import Refusal
from ..outbound.courier import Courier, Rules
from ..store import GameStore
from .access import Access
from .account_feed import AccountFeed
from .analysis_desk import AnalysisDesk
from .archiving import CLAIM_S, Archiving
from .challenges import Challenges
from .chat import Chat
from .closures import Closures
from .concede import Concede
from .hints import Hints
from .lobby import Lobby
from .notifications import Channel, Notifications
from .pairing import Pairing
from .people import CONTRACT, People, Times
from .play import Play
from .players import Players
from .ports import Archive, Degraded, Jobs, Unavailable, WorkQueue
from .preferences import Preferences
from .pushes import DEFAULT_PUSHES, PushDesk, PushSettings
from .rating import RatingDesk
from .rematch import Rematch
from .revocations import Revocations
from .seals import closed
from .table import Table
from .tournaments import Tournaments
from .turns import BOT_BUDGET_S, Turns
from .webhooks import DEFAULT_SENDING, Sending, WebhookDesk


class GameService:
    """Every operation on games, each one atomic against the store."""

    def __init__(
        self,
        store: GameStore,
        jobs: Jobs,
        clock: Callable[[], float] = time.time,
        bot_budget_s: float = BOT_BUDGET_S,
        archive: Archive | None = None,
        archive_claim_s: float = CLAIM_S,
        webhook_sending: Sending = DEFAULT_SENDING,
        bots_alone: str | None = None,
        push_settings: PushSettings = DEFAULT_PUSHES,
        presence: Times = CONTRACT,
    ) -> None:
        self.store = store
        self.jobs = jobs
        self.archive = archive
        self.table = Table(store, jobs, clock, archive)
        self.people = People(self.table, presence)
        self.lobby = Lobby(self.table, self.people)
        self.play = Play(self.table, self.people)
        self.turns = Turns(self.table, bot_budget_s)
        self.rematch = Rematch(self.table, self.lobby)
        self.concede = Concede(self.table, self.people)
        self.chat = Chat(self.table)
        self.closures = Closures(self.table, self.lobby)
        self.players = Players(self.table, self.closures)
        self.ratings = RatingDesk(self.table)
        self.pairing = Pairing(self.table, self.lobby)
        self.challenges = Challenges(self.table, self.lobby)
        self.tournaments = Tournaments(self.table, self.lobby, self.concede, bots_alone)
        self.hints = Hints(self.table)
        self.analyses = AnalysisDesk(self.table)
        self.account_feed = AccountFeed(self.table, self.ratings)
        # Everything that leaves the server goes through one courier a process.
        self.courier = Courier(Rules(allowed=webhook_sending.allowed))
        self.webhooks = WebhookDesk(self.table, webhook_sending, self.courier)
        self.preferences = Preferences(self.table)
        self.access = Access(self.table)
        self.revocations = Revocations(self.table)
        self.pushes = PushDesk(self.table, self.people, self.preferences, self.courier,
                               push_settings)  # fmt: skip
        channels: list[Channel] = [self.webhooks, self.pushes]
        self.notifications = Notifications(self.account_feed, self.courier, channels,
                                           self.preferences)  # fmt: skip
        self.archiving = (
            None
            if archive is None
            else Archiving(
                store, archive.games, archive_claim_s, held=functools.partial(closed, self.table)
            )
        )

    @property
    def work(self) -> WorkQueue:
        """The games that need a background worker (the runners claim them here)."""
        return self.store.work

    def open_streams(self, process: str, open_here: int) -> int:
        """Report this process's open event streams; the server's total."""
        return self.store.count_streams(process, open_here, self.table.clock())

    def backlog(self) -> JSON:
        """The archive's database, and how many ended games wait for it."""
        kind = "sqlite" if self.archive is None else self.archive.kind
        reachable = self.archive is None or self.archive.reachable()
        return {"database": kind, "reachable": reachable,
                "backlog": self.store.archiving_backlog()}  # fmt: skip

    def gauges(self) -> dict[str, Any]:
        """The server-wide figures of the metrics page that the stores hold."""
        live = {**dict.fromkeys(variants.names(), 0), **self.store.count_live()}
        queued = 0 if self.archive is None else self.archive.webhooks.queued()
        return {"games_live": live, "archive_backlog": self.store.archiving_backlog(),
                "webhooks_queued": queued}  # fmt: skip

    def health(self) -> str:
        """The store's kind, once it has taken a write; a 503 problem otherwise."""
        kind = self.store.kind
        try:
            self.store.ping()
        except Degraded:
            raise Refusal("degraded", f"the {kind} store answers but refuses writes") from None
        except Unavailable:
            raise Refusal("store_unavailable", f"the {kind} store cannot be reached") from None
        return kind
