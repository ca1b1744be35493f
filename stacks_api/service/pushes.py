"""Web Push: a channel of the notification port (``service.notifications``).

**Subscribing.** A browser subscribes with the server's VAPID public key
(``key``): its endpoint and keys are kept (``subscribe``, at most
``MOST_SUBSCRIPTIONS`` an account, the oldest dropped), checked like a webhook's
address. The key pair is the operator's (``STACKS_VAPID_PRIVATE_KEY``), else one
the server makes once and keeps in the archive for every process.

**Queueing.** For each event the account's preferences send to ``push``, each
subscription that wants it gets one push, queued once (its id is derived from
the subscription and the event). A push waits for the end of the account's
quiet hours, and none is queued for a game its person is looking at (online on
that game). Its plaintext is JSON ``{"type", "game_id", "title", "body", "url"}``,
at most ``LONGEST`` bytes, and never holds a card or a hand.

**Sending.** As webhook deliveries are: leased only as the courier has room,
encrypted (RFC 8291) and signed (VAPID) when sent, on the courier's threads.
A push service's 404 or 410 removes the subscription; a 429 pauses it for its
Retry-After; a push that outlived its TTL, or that the service refuses for
good, is dropped; anything else is tried again later.
"""

from __future__ import annotations

import functools
import hashlib
import json
import queue
from dataclasses import dataclass

from ..model.deliveries import PushDue, PushOutcome
from ..model.record import JSON
from ..model.refusals import Refusal, validation_error
from ..outbound import webpush
from ..outbound.addresses import NOTHING_ALLOWED, Allowed, Refused, Resolve, check, resolve
from ..outbound.courier import Courier, Letter
from ..outbound.http import Answer, number
from ..runtime import metrics
from .people import People
from .preferences import Preferences, kind_of, quiet_until
from .table import Table

MOST_SUBSCRIPTIONS = 5
LONGEST = 3072  # bytes of a push's plaintext
CANDIDATES = 200
PRUNE_EVERY_S = 60.0
DAY_S = 86_400
# Each kind of event: its Urgency, and how long a push service keeps it (TTL).
URGENCY = {"your_turn": "high", "turn_reminder": "high", "challenge": "normal",
           "game_ended": "normal", "tournament_starting": "normal", "chat": "low"}  # fmt: skip
TTL_S = {"your_turn": DAY_S, "turn_reminder": DAY_S, "challenge": 600, "game_ended": DAY_S,
         "tournament_starting": 3600, "chat": 600}  # fmt: skip


@dataclass(frozen=True)
class PushSettings:
    """The operator's part: the VAPID key (None: made once and kept), its contact,
    the addresses allowed although private, the first retry's wait, a lease."""

    private_key: str | None = None
    subject: str = "mailto:operator@localhost"
    allowed: Allowed = NOTHING_ALLOWED
    first_delay_s: float = 5.0
    lease_s: float = 30.0


DEFAULT_PUSHES = PushSettings()


class PushDesk:
    name = "push"  # the channel's name in the preferences

    def __init__(
        self,
        table: Table,
        people: People,
        preferences: Preferences,
        courier: Courier,
        settings: PushSettings = DEFAULT_PUSHES,
        resolver: Resolve = resolve,
    ) -> None:
        self.table, self.people, self.preferences = table, people, preferences
        self.courier, self.settings, self.resolver = courier, settings, resolver
        self._answers: queue.SimpleQueue[PushOutcome] = queue.SimpleQueue()
        self._next_prune = 0.0

    @functools.cached_property
    def vapid(self) -> webpush.Vapid:
        key = self.settings.private_key or self.table.archive_for("pushes").pushes.server_key(
            "vapid", webpush.new_private_key)  # fmt: skip
        return webpush.Vapid(key, self.settings.subject)

    # The player's requests

    def key(self) -> str:
        return self.vapid.public_key

    def subscribe(self, player_id: str, body: JSON) -> JSON:
        keys = body["keys"]
        try:
            webpush.check_keys(keys["p256dh"], keys["auth"])
        except webpush.PushKeyError as err:
            raise validation_error("keys", str(err)) from None
        try:
            check(body["endpoint"], self.settings.allowed, self.resolver)
        except Refused as refused:
            raise Refusal("url_refused", str(refused), {"endpoint": [str(refused)]}) from None
        events = sorted(set(body.get("events") or URGENCY))
        made = self.table.archive_for("pushes").pushes.subscribe(
            player_id, body["endpoint"], keys["p256dh"], keys["auth"], events)  # fmt: skip
        self.table.jobs.wake()  # in-process workers start now, if they had not
        return made

    def of(self, player_id: str) -> list[JSON]:
        return self.table.archive_for("pushes").pushes.of(player_id)

    def remove(self, player_id: str, subscription_id: str) -> None:
        if not self.table.archive_for("pushes").pushes.remove(player_id, subscription_id):
            raise Refusal("not_found", f"you have no subscription with id {subscription_id!r}")

    # The channel (service.notifications)

    def listeners(self) -> dict[str, float]:
        return self.table.archive_for("pushes").pushes.listeners()

    def queue(self, player_id: str, events: list[JSON], now: float) -> int:
        """Queue a push of each event the account sends to ``push`` to each of its
        subscriptions that wants it; how many were new."""
        wanted = [e for e in events if kind_of(e["type"]) and not self._looking(e, now)]
        if not wanted:
            return 0
        book = self.table.archive_for("pushes").pushes
        wake = quiet_until(self.preferences.of(player_id), now) or now
        rows = []
        for subscription in book.subscriptions(player_id):
            for event in wanted:
                kind = str(kind_of(event["type"]))
                if kind in subscription["events"]:
                    rows.append(_push(subscription["id"], player_id, event, kind, wake))
        return book.enqueue(rows)

    def send(self) -> int:
        """Record the pushes the courier finished, then hand it what is due."""
        self.record()
        book = self.table.archive_for("pushes").pushes
        now = self.table.clock()
        if now >= self._next_prune:  # a push done with is kept a day, then forgotten
            self._next_prune = now + PRUNE_EVERY_S
            book.prune(now - DAY_S)
        picked = []
        for candidate in book.due(CANDIDATES):
            slot = self.courier.reserve(candidate.url, candidate.player_id)
            if slot is not None:
                picked.append((candidate.id, slot))
        leased = {due.id: due for due in book.lease([i for i, _ in picked], self.settings.lease_s)}
        for push_id, slot in picked:
            due = leased.get(push_id)
            if due is None:
                slot.release()
                continue
            slot.send(self._letter(due), functools.partial(self._answered, due))
        return len(leased)

    def record(self) -> int:
        outcomes = []
        while True:
            try:
                outcomes.append(self._answers.get_nowait())
            except queue.Empty:
                break
        if outcomes:
            book = self.table.archive_for("pushes").pushes
            for outcome in book.finish_many(outcomes, self.settings.first_delay_s):
                metrics.PUSHES.labels(outcome=outcome).inc()
        return len(outcomes)

    def _letter(self, due: PushDue) -> Letter:
        body = webpush.encrypt(due.payload.encode(), due.p256dh, due.auth)
        headers = webpush.headers(self.vapid, due.endpoint, due.ttl, due.topic, due.urgency)
        return Letter(due.endpoint, body, due.player_id, headers)

    def _answered(self, due: PushDue, answer: Answer) -> None:
        """Keep a push's outcome for ``record`` (on the courier's thread)."""
        retry_after = None
        if answer.status == 429:  # a date, or nonsense, waits a minute; a pause lasts a day at most
            given = number(answer.headers.get("retry-after"), DAY_S)
            retry_after = float(60 if given is None else max(1, given))
        self._answers.put(PushOutcome(due, answer.ok, answer.status, retry_after))

    def _looking(self, event: JSON, now: float) -> bool:
        """Whether the person is at the event's game right now (no push then)."""
        game_id, seat = event.get("game_id"), event.get("seat")
        if game_id is None or seat is None:
            return False
        seen = self.people.last_seen(game_id).get(seat)
        return seen is not None and now - seen <= self.people.times.online_s


def _push(subscription_id: str, player_id: str, event: JSON, kind: str, at: float) -> JSON:
    """A queued push of ``event`` to one subscription."""
    challenge = event.get("challenge", {})  # each challenge is an event of its own
    said = (event["type"], event.get("game_id"), event.get("version"), event.get("round"),
            challenge.get("id"), challenge.get("status"))  # fmt: skip
    key = json.dumps([subscription_id, *said])
    # A push service keeps one waiting push a topic: a game's newest word on it, or a
    # challenge's (its answer replaces it), never one challenge in place of another.
    topic = event.get("game_id") or challenge.get("id") or kind.replace("_", "-")
    payload = _payload(event)
    return {"id": "p_" + hashlib.sha256(key.encode()).hexdigest()[:40],
            "subscription_id": subscription_id, "player_id": player_id, "event": event["type"],
            "payload": payload, "topic": str(topic)[:32], "urgency": URGENCY[kind],
            "ttl": TTL_S[kind], "next_at": at}  # fmt: skip


def _payload(event: JSON) -> str:
    """What a push says: who and which game, never a card or a hand."""
    kind = event["type"]
    game_id = event.get("game_id")
    title, body = TEXTS.get(kind, ("Your game", "Something happened in your game."))
    if kind == "chat":
        body = f"{event.get('name') or 'Someone'}: {str(event.get('text', ''))[:120]}"
    elif kind in ("challenge", "challenge_answered"):
        challenge = event.get("challenge", {})
        body = body.format(name=challenge.get("from_name") or challenge.get("to_name") or "")
    url = f"/play#game={game_id}" if game_id else "/play"
    text = json.dumps({"type": kind, "game_id": game_id, "title": title, "body": body[:200],
                       "url": url})  # fmt: skip
    assert len(text.encode()) <= LONGEST  # names and lines are bounded: it always fits
    return text


TEXTS = {
    "your_turn": ("Your turn", "It is your turn to play."),
    "turn_reminder": ("Your turn is running out", "Play before your time is up."),
    "challenge": ("A challenge", "{name} challenges you to a game."),
    "challenge_answered": ("Your challenge", "{name} answered your challenge."),
    "game_ended": ("Game over", "One of your games has ended."),
    "tournament_started": ("Tournament", "A tournament you entered has started."),
    "tournament_round": ("Tournament", "Your game of the next round is ready."),
    "chat": ("Chat", ""),
}
