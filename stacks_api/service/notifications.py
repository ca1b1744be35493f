"""Telling an account what happened, wherever it listens: the notification port.

An account's events come from its feed (``account_feed``), which each open
account stream follows by itself. The channels that reach an account when none
is open (webhooks, Web Push) are told by ``dispatch``, which the workers'
courier thread calls: it follows every account that has a channel, and hands
each new event to each channel the account's preferences send that kind of
event to (``service.preferences``).
Each channel keeps a durable queue of what it must send and hands it to the
courier (``stacks_api.outbound``) in ``send``: no part of the service calls an
HTTP library, and a receiver that stalls holds only its own slots.
"""

from __future__ import annotations

from typing import Protocol

from ..model.record import JSON
from ..outbound.courier import Courier
from .account_feed import AccountFeed, Told
from .preferences import Preferences, goes_to


class Channel(Protocol):
    """A way to reach accounts when no stream of theirs is open."""

    name: str  # as the accounts' preferences name it

    def listeners(self) -> dict[str, float]:
        """Every account this channel reaches, and since when (epoch seconds)."""

    def queue(self, player_id: str, events: list[JSON], now: float) -> int:
        """Queue what the account must be sent of ``events`` (each once, however
        often it is queued); how many were new."""

    def send(self) -> int:
        """Record what the courier finished, and hand it what is due; how many."""


class Notifications:
    def __init__(
        self,
        feed: AccountFeed,
        courier: Courier,
        channels: list[Channel],
        preferences: Preferences | None = None,
    ) -> None:
        self.feed = feed
        self.courier = courier
        self.channels = channels
        self.preferences = preferences
        self._followed: dict[str, Told] = {}  # account -> what was handed on so far

    def dispatch(self, now: float) -> int:
        """Hand every new event of every account that has a channel to the channels
        that reach it; how many were queued."""
        listening: dict[str, list[tuple[Channel, float]]] = {}
        for channel in self.channels:
            for player_id, since in channel.listeners().items():
                listening.setdefault(player_id, []).append((channel, since))
        for gone in set(self._followed) - set(listening):
            del self._followed[gone]
        queued = 0
        for player_id, channels in listening.items():
            told = self._followed.get(player_id)
            if told is None:
                told, events = self.feed.first(player_id, min(since for _, since in channels))
                self._followed[player_id] = told
            else:
                events = self.feed.poll(player_id, told)
            if not events:
                continue
            chosen = self.preferences.of(player_id) if self.preferences is not None else None
            for channel, _ in channels:
                sent = [e for e in events
                        if chosen is None or goes_to(chosen, e["type"], channel.name)]  # fmt: skip
                queued += channel.queue(player_id, sent, now) if sent else 0
        return queued

    def send(self) -> int:
        """Each channel's due sends, handed to the courier."""
        return sum(channel.send() for channel in self.channels)
