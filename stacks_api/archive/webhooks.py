"""Webhooks and the durable queue of their deliveries, in the archive's database.

A delivery's row is written once per (webhook, event) — its id is derived from
both, so the processes that find the same event write it once — and stays
``pending`` until a worker has it accepted (a 2xx), or it has been retried for
``RETRY_FOR_S``. A worker takes due deliveries with a compare-and-set on
``lease_until``: one that dies mid-delivery lets the lease run out, and the
next worker sends it again (the receiver dedupes by the ``webhook-id``).
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Connection, Engine, Select, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..model.deliveries import Attempt, Candidate, Due
from ..model.record import JSON
from ..model.refusals import Refusal
from .errors import ArchiveUnavailable, connected
from .games import insert_ignoring
from .models import Webhook, WebhookAttempt, WebhookDelivery

MAX_WEBHOOKS = 5  # per player
RETRY_FOR_S = 25 * 3600  # a delivery is retried at least a day before it fails
# A webhook that failed every delivery this long is disabled, and what waited for
# it fails with it.
DISABLE_AFTER_S = 24 * 3600
MAX_DELAY_S = 6 * 3600  # the longest wait between two attempts
SHOWN_DELIVERIES = 50
# A webhook's pending deliveries at most: past that its oldest are dropped unsent
# (and counted), so a receiver that fails for hours holds a bounded pile.
MAX_BACKLOG = 1000


def retry_delay(attempts: int, first_s: float, rng: random.Random) -> float:
    """The wait after the ``attempts``-th failed attempt: tripling from ``first_s``
    up to ``MAX_DELAY_S``, with jitter (between half and all of it) so that a
    receiver back from an outage is not hit by every retry at once."""
    delay = min(MAX_DELAY_S, first_s * 3.0 ** max(0, attempts - 1))
    return float(delay * (0.5 + rng.random() / 2))


class WebhookBook:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock
        self.rng = random.Random()

    # The player's webhooks

    def create(self, player_id: str, url: str, events: list[str]) -> tuple[JSON, str]:
        secret = "whsec_" + secrets.token_urlsafe(24)
        row: JSON = {"id": secrets.token_hex(8), "player_id": player_id, "url": url,
                     "events": ",".join(events), "secret": secret,
                     "created_at": self.clock()}  # fmt: skip
        with connected(self.engine, write=True) as connection:
            count = connection.scalar(select(func.count()).where(Webhook.player_id == player_id))
            if (count or 0) >= MAX_WEBHOOKS:
                raise Refusal("too_many_webhooks", f"a player has at most {MAX_WEBHOOKS} "
                                                   "webhooks: remove one first")  # fmt: skip
            connection.execute(insert(Webhook).values(row))
        return _shown(row), secret

    def of(self, player_id: str) -> list[JSON]:
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Webhook).where(Webhook.player_id == player_id)
                .order_by(Webhook.created_at, Webhook.id)
            ).all()  # fmt: skip
        return [_shown(_columns(r)) for r in rows]

    def remove(self, player_id: str, webhook_id: str) -> bool:
        with connected(self.engine, write=True) as connection:
            mine = select(Webhook.id).where(
                Webhook.id == webhook_id, Webhook.player_id == player_id
            )
            if connection.scalar(mine) is None:
                return False
            drop(connection, mine)
        return True

    def deliveries(self, player_id: str, webhook_id: str) -> list[JSON] | None:
        """The webhook's latest deliveries, newest first, each with its attempts;
        None when the player has no such webhook."""
        with connected(self.engine) as connection:
            owner = connection.scalar(select(Webhook.player_id).where(Webhook.id == webhook_id))
            if owner != player_id:
                return None
            rows = connection.execute(
                select(WebhookDelivery).where(WebhookDelivery.webhook_id == webhook_id)
                .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.id)
                .limit(SHOWN_DELIVERIES)
            ).all()  # fmt: skip
            attempts = connection.execute(
                select(WebhookAttempt)
                .where(WebhookAttempt.delivery_id.in_([r.id for r in rows]))
                .order_by(WebhookAttempt.id)
            ).all()
        tries: dict[str, list[JSON]] = {}
        for a in attempts:
            tries.setdefault(a.delivery_id, []).append(
                {"at": a.at, "status": a.status, "error": a.error, "duration_ms": a.duration_ms}
            )
        return [
            {"id": r.id, "event": r.event, "state": r.state, "created_at": r.created_at,
             "next_at": r.next_at if r.state == "pending" else None,
             "attempts": tries.get(r.id, [])}
            for r in rows
        ]  # fmt: skip

    def disabled_since(self, player_id: str, since: float) -> list[JSON]:
        """The player's webhooks disabled after ``since``."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Webhook).where(Webhook.player_id == player_id,
                                      Webhook.disabled_at > since)
            ).all()  # fmt: skip
        return [_shown(_columns(r)) for r in rows]

    # The dispatcher's side

    def active(self) -> list[JSON]:
        """Every webhook that is not disabled (what the dispatcher looks after)."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Webhook.id, Webhook.player_id, Webhook.events, Webhook.created_at)
                .where(Webhook.disabled_at.is_(None))
            ).all()  # fmt: skip
        return [{"id": r.id, "player_id": r.player_id, "events": set(r.events.split(",")),
                 "created_at": r.created_at} for r in rows]  # fmt: skip

    def enqueue(self, deliveries: Iterable[JSON]) -> int:
        """Queue deliveries (``id``, ``webhook_id``, ``event``, ``payload``); those
        queued before are left as they are. How many were new."""
        now = self.clock()
        rows = [{**d, "created_at": now, "state": "pending", "next_at": now, "lease_until": 0.0,
                 "attempts": 0} for d in deliveries]  # fmt: skip
        if not rows:
            return 0
        try:
            with connected(self.engine, write=True) as connection:
                statement = insert_ignoring(self.engine, WebhookDelivery)
                new = len(list(connection.scalars(statement.returning(WebhookDelivery.id), rows)))
                for webhook_id in sorted({r["webhook_id"] for r in rows}):
                    _cap_backlog(connection, webhook_id, now)
                return new
        except ArchiveUnavailable as err:
            if isinstance(err.__cause__, IntegrityError):  # its webhook was just deleted
                return 0
            raise

    def queued(self) -> int:
        with connected(self.engine) as connection:
            count = connection.scalar(
                select(func.count()).where(WebhookDelivery.state == "pending")
            )
        return int(count or 0)

    def prune(self, before: float) -> int:
        """Forget deliveries that were delivered or failed, made before ``before``
        (with their attempts); how many."""
        done = select(WebhookDelivery.id).where(WebhookDelivery.state != "pending",
                                                WebhookDelivery.created_at < before)  # fmt: skip
        with connected(self.engine, write=True) as connection:
            connection.execute(delete(WebhookAttempt).where(WebhookAttempt.delivery_id.in_(done)))
            gone = connection.execute(delete(WebhookDelivery).where(WebhookDelivery.id.in_(done)))
        return int(gone.rowcount or 0)

    def due(self, limit: int, per_webhook: int = 2) -> list[Candidate]:
        """Up to ``limit`` due deliveries of enabled webhooks that nobody holds, taken
        in turn across accounts (each account's oldest due, then each one's next, ...)
        and at most ``per_webhook`` of each webhook: however many deliveries some
        accounts have piled up, another account's comes within the first turn."""
        now = self.clock()
        same_hook = func.row_number().over(
            partition_by=WebhookDelivery.webhook_id,
            order_by=(WebhookDelivery.next_at, WebhookDelivery.id),
        )
        ranked = (
            select(WebhookDelivery.id, WebhookDelivery.next_at, WebhookDelivery.webhook_id,
                   Webhook.player_id, same_hook.label("nth"))
            .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
            .where(WebhookDelivery.state == "pending", WebhookDelivery.next_at <= now,
                   WebhookDelivery.lease_until <= now, Webhook.disabled_at.is_(None))
        ).subquery()  # fmt: skip
        turn = func.row_number().over(partition_by=ranked.c.player_id,
                                      order_by=(ranked.c.next_at, ranked.c.id))  # fmt: skip
        taken = (
            select(ranked.c.id, ranked.c.webhook_id, ranked.c.player_id, ranked.c.next_at,
                   turn.label("turn"))
            .where(ranked.c.nth <= per_webhook)
        ).subquery()  # fmt: skip
        query = (
            select(taken.c.id, Webhook.url, Webhook.player_id)
            .join(Webhook, Webhook.id == taken.c.webhook_id)
            .order_by(taken.c.turn, taken.c.next_at, taken.c.id)
            .limit(limit)
        )
        with connected(self.engine) as connection:
            rows = connection.execute(query).all()
        return [Candidate(r.id, r.url, r.player_id) for r in rows]

    def lease(self, ids: list[str], lease_s: float) -> list[Due]:
        """Lease those of ``ids`` that are still due and free, each by a compare-and-set
        (no two workers send one at once); the leased ones."""
        now = self.clock()
        until = now + lease_s
        if not ids:
            return []
        with connected(self.engine, write=True) as connection:
            taken = [delivery_id for delivery_id in ids if connection.execute(
                update(WebhookDelivery)
                .where(WebhookDelivery.id == delivery_id, WebhookDelivery.state == "pending",
                       WebhookDelivery.lease_until <= now)
                .values(lease_until=until, attempts=WebhookDelivery.attempts + 1)
            ).rowcount]  # fmt: skip
            rows = connection.execute(
                select(WebhookDelivery, Webhook.url, Webhook.secret, Webhook.player_id)
                .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
                .where(WebhookDelivery.id.in_(taken))
            ).all()
        return [
            Due(r.id, r.webhook_id, r.player_id, r.url, r.secret, r.event, r.payload,
                r.attempts, r.created_at, until)
            for r in rows
        ]  # fmt: skip

    def claim(self, lease_s: float, limit: int) -> list[Due]:
        """Lease up to ``limit`` due deliveries, oldest due first."""
        return self.lease([c.id for c in self.due(limit)], lease_s)

    def finish(
        self,
        due: Due,
        ok: bool,
        status: int | None,
        error: str | None,
        duration_ms: float,
        first_delay_s: float,
    ) -> str:
        """Record one attempt (``finish_many``)."""
        return self.finish_many([Attempt(due, ok, status, error, duration_ms)], first_delay_s)[0]

    def finish_many(self, attempts: list[Attempt], first_delay_s: float) -> list[str]:
        """Record attempts, in one transaction, and what follows each: ``delivered``,
        ``retry`` or ``failed`` (``lost`` and nothing changed when the lease ran out
        meanwhile: another worker has the delivery)."""
        with connected(self.engine, write=True) as connection:
            return [self._finish(connection, attempt, first_delay_s) for attempt in attempts]

    def _finish(self, connection: Connection, attempt: Attempt, first_delay_s: float) -> str:
        now, due, ok = self.clock(), attempt.due, attempt.ok
        outcome = "delivered" if ok else "retry"
        if not ok and now - due.created_at >= RETRY_FOR_S:
            outcome = "failed"
        values: dict[str, Any] = {"lease_until": 0.0}
        if outcome == "retry":
            values["next_at"] = now + retry_delay(due.attempts, first_delay_s, self.rng)
        else:
            values["state"] = outcome
        mine = connection.execute(
            update(WebhookDelivery)
            .where(WebhookDelivery.id == due.id, WebhookDelivery.lease_until == due.lease_until)
            .values(**values)
        )  # fmt: skip
        if not mine.rowcount:
            return "lost"
        connection.execute(insert(WebhookAttempt).values(
            delivery_id=due.id, at=now, status=attempt.status, error=attempt.error,
            duration_ms=attempt.duration_ms))  # fmt: skip
        hook = update(Webhook).where(Webhook.id == due.webhook_id)
        if ok:
            connection.execute(hook.where(Webhook.failing_since.is_not(None))
                               .values(failing_since=None))  # fmt: skip
            return outcome
        connection.execute(hook.where(Webhook.failing_since.is_(None))
                           .values(failing_since=now))  # fmt: skip
        disabled = connection.execute(
            hook.where(Webhook.failing_since <= now - DISABLE_AFTER_S,
                       Webhook.disabled_at.is_(None)).values(disabled_at=now)
        )  # fmt: skip
        if disabled.rowcount:  # what waits for it will not be sent
            connection.execute(
                update(WebhookDelivery).where(WebhookDelivery.webhook_id == due.webhook_id,
                                              WebhookDelivery.state == "pending")
                .values(state="failed")
            )  # fmt: skip
            outcome = "failed"
        return outcome


def _cap_backlog(connection: Connection, webhook_id: str, now: float) -> None:
    """Drop the oldest of a webhook's pending deliveries past ``MAX_BACKLOG`` (not
    one under way), counted on the webhook."""
    pending = (WebhookDelivery.webhook_id == webhook_id) & (WebhookDelivery.state == "pending")
    count = connection.scalar(select(func.count()).where(pending)) or 0
    if count <= MAX_BACKLOG:
        return
    oldest = connection.scalars(
        select(WebhookDelivery.id).where(pending, WebhookDelivery.lease_until <= now)
        .order_by(WebhookDelivery.created_at, WebhookDelivery.id).limit(count - MAX_BACKLOG)
    ).all()  # fmt: skip
    if oldest:
        connection.execute(delete(WebhookAttempt).where(WebhookAttempt.delivery_id.in_(oldest)))
        connection.execute(delete(WebhookDelivery).where(WebhookDelivery.id.in_(oldest)))
        connection.execute(update(Webhook).where(Webhook.id == webhook_id)
                           .values(dropped=Webhook.dropped + len(oldest)))  # fmt: skip


def drop(connection: Connection, hooks: Select[Any]) -> None:
    """Delete the webhooks ``hooks`` selects (their ids), with their deliveries and
    attempts, in the caller's transaction. Their deliveries, then the webhooks, are
    locked first (the order in which a worker recording an attempt takes them): a
    delivery queued meanwhile either committed before the webhooks' lock (and is
    deleted here) or waits for this transaction and finds its webhook gone, instead
    of failing the deletion on its foreign key."""
    deliveries = select(WebhookDelivery.id).where(WebhookDelivery.webhook_id.in_(hooks))
    connection.execute(deliveries.with_for_update())
    connection.execute(select(Webhook.id).where(Webhook.id.in_(hooks)).with_for_update())
    connection.execute(delete(WebhookAttempt).where(WebhookAttempt.delivery_id.in_(deliveries)))
    connection.execute(delete(WebhookDelivery).where(WebhookDelivery.webhook_id.in_(hooks)))
    connection.execute(delete(Webhook).where(Webhook.id.in_(hooks)))


def _columns(row: Any) -> JSON:
    return {"id": row.id, "url": row.url, "events": row.events, "created_at": row.created_at,
            "disabled_at": row.disabled_at, "dropped": row.dropped}  # fmt: skip


def _shown(row: JSON) -> JSON:
    """A webhook as its owner sees it (never its secret)."""
    events = row["events"].split(",") if isinstance(row["events"], str) else row["events"]
    return {"id": row["id"], "url": row["url"], "events": events,
            "created_at": row["created_at"], "disabled_at": row.get("disabled_at"),
            "dropped": row.get("dropped") or 0}  # fmt: skip
