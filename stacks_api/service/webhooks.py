"""Webhooks: a player's account events POSTed to a URL of theirs, signed.

**Finding events.** The dispatcher (a worker thread) follows every enabled
webhook's account with the account stream's own feed (``AccountFeed``) and
queues each new event for each webhook that wants it. A delivery's id is
derived from the webhook and the event (``your_turn`` of a game's version,
``game_ended`` of a game, ...), and the queue keeps one row per id, so however
many processes dispatch, and however often one restarts, an event is queued
once.

**Sending.** The sender leases due deliveries from the queue
(``archive.webhooks``), POSTs each signed as Standard Webhooks do (headers
``webhook-id``, ``webhook-timestamp``, ``webhook-signature: v1,<base64 of
HMAC-SHA256 over "id.timestamp.body">``), and records the attempt: a 2xx
delivers it; anything else, or no answer, retries later with growing delays
for a day. Never inside a request.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any

import requests

from .. import metrics, outbound
from ..problems import Refusal
from ..record import JSON
from .account_feed import AccountFeed, Told
from .ports import Archive
from .table import Table

EVENTS = ("your_turn", "game_started", "game_ended", "paired", "seek_closed", "challenge",
          "challenge_answered", "tournament_started", "tournament_round",
          "tournament_ended")  # fmt: skip
TIMEOUT_S = (3.0, 10.0)  # connect, read
BATCH = 20


def sign(secret: str, message_id: str, timestamp: int, body: str) -> str:
    """``v1,<signature>``: HMAC-SHA256 of ``id.timestamp.body`` keyed by the secret
    (its ``whsec_`` part is the key as text)."""
    signed = f"{message_id}.{timestamp}.{body}".encode()
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def event_key(event: JSON) -> str:
    """What makes an event the same event wherever it is found."""
    kind = event["type"]
    if kind == "your_turn":
        return f"{kind}:{event['game_id']}:{event['version']}"
    if kind in ("paired", "seek_closed"):
        return f"{kind}:{event['seek']}:{event.get('status', '')}"
    if kind in ("challenge", "challenge_answered"):
        return f"{kind}:{event['challenge']['id']}:{event['challenge']['status']}"
    if kind in ("tournament_started", "tournament_ended"):
        return f"{kind}:{event['tournament_id']}"
    return f"{kind}:{event['game_id']}"


def delivery_id(webhook_id: str, event: JSON) -> str:
    digest = hashlib.sha256(f"{webhook_id}|{event_key(event)}".encode()).hexdigest()
    return f"msg_{digest[:32]}"


@dataclass(frozen=True)
class Sending:
    """How deliveries are sent: the operator's allowed addresses, the first retry's
    wait, and how long a worker holds a delivery (longer than an attempt takes)."""

    allowed: outbound.Allowed = outbound.NOTHING_ALLOWED
    first_delay_s: float = 5.0
    lease_s: float = 30.0


DEFAULT_SENDING = Sending()


class WebhookDesk:
    def __init__(
        self,
        table: Table,
        feed: AccountFeed,
        sending: Sending = DEFAULT_SENDING,
        resolver: outbound.Resolve = outbound.resolve,
    ) -> None:
        self.table = table
        self.feed = feed
        self.allowed = sending.allowed
        self.first_delay_s = sending.first_delay_s
        self.lease_s = sending.lease_s
        self.resolver = resolver
        self._followed: dict[str, Told] = {}  # player -> what was queued for them
        self.session = requests.Session()

    @property
    def archive(self) -> Archive:
        return self.table.archive_for("webhooks")

    # The player's requests

    def create(self, player_id: str, url: str, events: list[str]) -> tuple[JSON, str]:
        try:
            outbound.check(url, self.allowed, self.resolver)
        except outbound.Refused as refused:
            raise Refusal("url_refused", str(refused), {"url": [str(refused)]}) from None
        made = self.archive.webhooks.create(player_id, url, sorted(set(events)))
        self.table.jobs.wake()  # in-process workers start now, if they had not
        return made

    def of(self, player_id: str) -> list[JSON]:
        return self.archive.webhooks.of(player_id)

    def remove(self, player_id: str, webhook_id: str) -> None:
        if not self.archive.webhooks.remove(player_id, webhook_id):
            raise Refusal("not_found", f"you have no webhook with id {webhook_id!r}")

    def deliveries(self, player_id: str, webhook_id: str) -> list[JSON]:
        found = self.archive.webhooks.deliveries(player_id, webhook_id)
        if found is None:
            raise Refusal("not_found", f"you have no webhook with id {webhook_id!r}")
        return found

    # The workers' part

    def dispatch(self) -> int:
        """Queue every new event of every followed account; how many were new."""
        hooks = self.archive.webhooks.active()
        players: dict[str, list[JSON]] = {}
        for hook in hooks:
            players.setdefault(hook["player_id"], []).append(hook)
        for gone in set(self._followed) - set(players):
            del self._followed[gone]
        queued = []
        now = self.table.clock()
        for player_id, mine in players.items():
            told = self._followed.get(player_id)
            if told is None:
                since = min(h["created_at"] for h in mine)
                told, events = self.feed.first(player_id, since)
                self._followed[player_id] = told
            else:
                events = self.feed.poll(player_id, told)
            for event in events:
                for hook in mine:
                    if event["type"] in hook["events"]:
                        queued.append({"id": delivery_id(hook["id"], event),
                                       "webhook_id": hook["id"], "event": event["type"],
                                       "payload": _payload(event, now)})  # fmt: skip
        return self.archive.webhooks.enqueue(queued)

    def deliver(self) -> int:
        """Send a batch of due deliveries; how many were attempted."""
        due = self.archive.webhooks.claim(self.lease_s, BATCH)
        for delivery in due:
            self._send(delivery)
        return len(due)

    def _send(self, due: Any) -> None:
        started = time.perf_counter()
        status, error = None, None
        try:
            outbound.check(due.url, self.allowed, self.resolver)
            timestamp = int(time.time())
            headers = {
                "content-type": "application/json",
                "user-agent": "stacks-api-webhooks",
                "webhook-id": due.id,
                "webhook-timestamp": str(timestamp),
                "webhook-signature": sign(due.secret, due.id, timestamp, due.payload),
            }
            answer = self.session.post(due.url, data=due.payload.encode(), headers=headers,
                                       timeout=TIMEOUT_S, allow_redirects=False)  # fmt: skip
            status = answer.status_code
            answer.close()
        except outbound.Refused as refused:
            error = str(refused)[:200]
        except requests.RequestException as failure:
            error = type(failure).__name__
        ok = status is not None and 200 <= status < 300
        took = (time.perf_counter() - started) * 1000
        outcome = self.archive.webhooks.finish(due, ok, status, error, took, self.first_delay_s)
        metrics.WEBHOOK_DELIVERIES.labels(outcome=outcome).inc()


def _payload(event: JSON, at: float) -> str:
    """A delivery's body: the event's type, when it was found, and its fields."""
    data = {k: v for k, v in event.items() if k != "type"}
    return json.dumps({"type": event["type"], "timestamp": at, "data": data},
                      separators=(",", ":"))  # fmt: skip
