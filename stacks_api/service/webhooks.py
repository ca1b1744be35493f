"""Webhooks: a player's account events POSTed to a URL of theirs, signed.

**Finding events.** Webhooks are a channel of the notification port
(``service.notifications``), which follows every account that has an enabled
webhook with the account stream's own feed and hands its new events to
``queue``: each is queued for each webhook that wants it. A delivery's id is
derived from the webhook and the event (``your_turn`` of a game's version,
``game_ended`` of a game, ...), and the queue keeps one row per id, so however
many processes dispatch, and however often one restarts, an event is queued
once.

**Sending.** The sender takes due deliveries from the queue
(``archive.webhooks``, at most two per webhook at a time) only as the courier
(``stacks_api.outbound.courier``) has room for them: room in all, at the
delivery's destination and for its account. It leases those, and the courier
POSTs each signed as Standard Webhooks do (headers ``webhook-id``,
``webhook-timestamp``, ``webhook-signature: v1,<base64 of HMAC-SHA256 over
"id.timestamp.body">``) on a thread of its own, within one deadline, and the
attempt is recorded there: a 2xx delivers it; anything else, or no answer,
retries later with growing delays for a day. A receiver that stalls holds only
its own slots. Never inside a request.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
import queue
from dataclasses import dataclass

from ..model.deliveries import Attempt, Due
from ..model.record import JSON
from ..model.refusals import Refusal
from ..outbound.addresses import NOTHING_ALLOWED, Allowed, Refused, Resolve, check, resolve
from ..outbound.courier import Courier, Letter, Rules
from ..outbound.http import Answer
from ..runtime import metrics
from .ports import Archive
from .table import Table

EVENTS = ("your_turn", "turn_reminder", "game_started", "game_ended", "paired", "seek_closed",
          "challenge", "challenge_answered", "tournament_started", "tournament_round",
          "tournament_ended", "chat")  # fmt: skip
CANDIDATES = 200  # due deliveries looked at a pass (at most two of each webhook)
KEPT_S = 7 * 86_400  # how long a delivered or failed delivery stays listed
PRUNE_EVERY_S = 60.0


def sign(secret: str, message_id: str, timestamp: int, body: str) -> str:
    """``v1,<signature>``: HMAC-SHA256 of ``id.timestamp.body`` keyed by the secret
    (its ``whsec_`` part is the key as text)."""
    signed = f"{message_id}.{timestamp}.{body}".encode()
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def event_key(event: JSON) -> str:
    """What makes an event the same event wherever it is found."""
    kind = event["type"]
    if kind in ("your_turn", "turn_reminder", "chat"):
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

    allowed: Allowed = NOTHING_ALLOWED
    first_delay_s: float = 5.0
    lease_s: float = 30.0


DEFAULT_SENDING = Sending()


class WebhookDesk:
    name = "webhook"  # the channel's name in the preferences

    def __init__(
        self,
        table: Table,
        sending: Sending = DEFAULT_SENDING,
        courier: Courier | None = None,
        resolver: Resolve = resolve,
    ) -> None:
        self.table = table
        self.allowed = sending.allowed
        self.first_delay_s = sending.first_delay_s
        self.lease_s = sending.lease_s
        self.resolver = resolver
        self.courier = courier or Courier(Rules(allowed=sending.allowed), resolver)
        self._answers: queue.SimpleQueue[Attempt] = queue.SimpleQueue()
        self._next_prune = 0.0

    @property
    def archive(self) -> Archive:
        return self.table.archive_for("webhooks")

    # The player's requests

    def create(self, player_id: str, url: str, events: list[str]) -> tuple[JSON, str]:
        try:
            check(url, self.allowed, self.resolver)
        except Refused as refused:
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

    def listeners(self) -> dict[str, float]:
        """Every account with an enabled webhook, since its first was made."""
        since: dict[str, float] = {}
        for hook in self.archive.webhooks.active():
            player = hook["player_id"]
            since[player] = min(since.get(player, hook["created_at"]), hook["created_at"])
        return since

    def queue(self, player_id: str, events: list[JSON], now: float) -> int:
        """Queue a delivery of each event to each of the account's webhooks that
        wants it (once: a delivery's id is derived from both); how many were new."""
        hooks = [h for h in self.archive.webhooks.active() if h["player_id"] == player_id]
        queued = [
            {"id": delivery_id(hook["id"], event), "webhook_id": hook["id"],
             "event": event["type"], "payload": _payload(event, now)}
            for event in events for hook in hooks if event["type"] in hook["events"]
        ]  # fmt: skip
        return self.archive.webhooks.enqueue(queued)

    def send(self) -> int:
        now = self.table.clock()
        if now >= self._next_prune:  # what was delivered or failed is kept a week
            self._next_prune = now + PRUNE_EVERY_S
            self.archive.webhooks.prune(now - KEPT_S)
        return self.deliver()

    def deliver(self) -> int:
        """Record the attempts the courier finished, then hand it every due delivery
        it has room for; how many it took."""
        self.record()
        book = self.archive.webhooks
        picked = []
        for candidate in book.due(CANDIDATES):
            slot = self.courier.reserve(candidate.url, candidate.player_id)
            if slot is not None:
                picked.append((candidate.id, slot))
        leased = {due.id: due for due in book.lease([i for i, _ in picked], self.lease_s)}
        for delivery_id, slot in picked:
            due = leased.get(delivery_id)
            if due is None:  # another worker took it
                slot.release()
                continue
            slot.send(_letter(due, self.table.clock()), functools.partial(self._answered, due))
        return len(leased)

    def record(self) -> int:
        """Record, in one transaction, the attempts finished since the last call."""
        attempts = []
        while True:
            try:
                attempts.append(self._answers.get_nowait())
            except queue.Empty:
                break
        if attempts:
            for outcome in self.archive.webhooks.finish_many(attempts, self.first_delay_s):
                metrics.WEBHOOK_DELIVERIES.labels(outcome=outcome).inc()
        return len(attempts)

    def _answered(self, due: Due, answer: Answer) -> None:
        """Keep an attempt's outcome for ``record`` (called on the courier's thread:
        one writer records them all, in batches)."""
        error = None if answer.status is not None else answer.error
        self._answers.put(Attempt(due, answer.ok, answer.status, error, answer.seconds * 1000))


def _letter(due: Due, now: float) -> Letter:
    """A delivery as the courier sends it, signed now."""
    timestamp = int(now)
    headers = {
        "content-type": "application/json",
        "user-agent": "stacks-api-webhooks",
        "webhook-id": due.id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": sign(due.secret, due.id, timestamp, due.payload),
    }
    return Letter(due.url, due.payload.encode(), due.player_id, headers)


def _payload(event: JSON, at: float) -> str:
    """A delivery's body: the event's type, when it was found, and its fields."""
    data = {k: v for k, v in event.items() if k != "type"}
    return json.dumps({"type": event["type"], "timestamp": at, "data": data},
                      separators=(",", ":"))  # fmt: skip
