"""Web Push in the archive's database: subscriptions (at most a few an account),
the durable queue of pushes (leased like webhook deliveries: written once per
subscription and event, sent until accepted, refused for good, or stale), each
account's notification preferences, and the keys the server makes once."""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..model.deliveries import Candidate, PushDue, PushOutcome
from ..model.record import JSON
from .errors import ArchiveUnavailable, connected
from .games import insert_ignoring
from .models_push import NotificationPreferences, PushDelivery, PushSubscription, ServerKey
from .webhooks import retry_delay

MOST_SUBSCRIPTIONS = 5  # an account's; a sixth drops the oldest
MAX_BACKLOG = 100  # pending pushes a subscription holds at most (the oldest go first)


class PushBook:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock
        self.rng = random.Random()

    # Subscriptions

    def subscribe(self, player_id: str, endpoint: str, p256dh: str, auth: str,
                  events: list[str]) -> JSON:  # fmt: skip
        """Keep a subscription (the same endpoint again: replaced), dropping the
        account's oldest beyond ``MOST_SUBSCRIPTIONS``; the subscription."""
        row = {"id": secrets.token_hex(8), "player_id": player_id, "endpoint": endpoint,
               "p256dh": p256dh, "auth": auth, "events": ",".join(events),
               "created_at": self.clock(), "paused_until": 0.0}  # fmt: skip
        with connected(self.engine, write=True) as connection:
            same = select(PushSubscription.id).where(
                PushSubscription.player_id == player_id, PushSubscription.endpoint == endpoint
            )
            _drop(connection, same)
            connection.execute(insert(PushSubscription).values(row))
            mine = connection.execute(
                select(PushSubscription.id).where(PushSubscription.player_id == player_id)
                .order_by(PushSubscription.created_at.desc(), PushSubscription.id)
            ).scalars().all()  # fmt: skip
            if len(mine) > MOST_SUBSCRIPTIONS:
                _drop(connection, select(PushSubscription.id).where(
                    PushSubscription.id.in_(mine[MOST_SUBSCRIPTIONS:])))  # fmt: skip
        return _shown(row)

    def of(self, player_id: str) -> list[JSON]:
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(PushSubscription).where(PushSubscription.player_id == player_id)
                .order_by(PushSubscription.created_at, PushSubscription.id)
            ).all()  # fmt: skip
        return [_shown(r._mapping) for r in rows]

    def remove(self, player_id: str, subscription_id: str) -> bool:
        with connected(self.engine, write=True) as connection:
            mine = select(PushSubscription.id).where(
                PushSubscription.id == subscription_id, PushSubscription.player_id == player_id
            )
            if connection.scalar(mine) is None:
                return False
            _drop(connection, mine)
        return True

    def listeners(self) -> dict[str, float]:
        """Every account with a subscription, since its first was made."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(PushSubscription.player_id, func.min(PushSubscription.created_at))
                .group_by(PushSubscription.player_id)
            ).all()  # fmt: skip
        return {player: float(since) for player, since in rows}

    def subscriptions(self, player_id: str) -> list[JSON]:
        """The account's subscriptions as the sender needs them (their events)."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(PushSubscription.id, PushSubscription.events)
                .where(PushSubscription.player_id == player_id)
            ).all()  # fmt: skip
        return [{"id": r.id, "events": set(r.events.split(","))} for r in rows]

    # The queue

    def enqueue(self, pushes: Iterable[JSON]) -> int:
        """Queue pushes (``id``, ``subscription_id``, ``player_id``, ``event``,
        ``payload``, ``topic``, ``urgency``, ``ttl``, ``next_at``); those queued
        before are left as they are. How many were new."""
        now = self.clock()
        rows = [{**p, "state": "pending", "created_at": now, "lease_until": 0.0, "attempts": 0}
                for p in pushes]  # fmt: skip
        if not rows:
            return 0
        try:
            with connected(self.engine, write=True) as connection:
                statement = insert_ignoring(self.engine, PushDelivery).returning(PushDelivery.id)
                new = len(list(connection.scalars(statement, rows)))
                for subscription_id in sorted({r["subscription_id"] for r in rows}):
                    _cap_backlog(connection, subscription_id, now)
                return new
        except ArchiveUnavailable as err:
            if isinstance(err.__cause__, IntegrityError):  # its subscription just went
                return 0
            raise

    def due(self, limit: int) -> list[Candidate]:
        """Pushes due and free, at most two of each subscription, taken in turn
        across accounts (each account's oldest due, then each one's next, ...)."""
        now = self.clock()
        nth = func.row_number().over(partition_by=PushDelivery.subscription_id,
                                     order_by=(PushDelivery.next_at, PushDelivery.id))  # fmt: skip
        ranked = (
            select(PushDelivery.id, PushDelivery.next_at, PushDelivery.subscription_id,
                   PushDelivery.player_id, nth.label("nth"))
            .join(PushSubscription, PushSubscription.id == PushDelivery.subscription_id)
            .where(PushDelivery.state == "pending", PushDelivery.next_at <= now,
                   PushDelivery.lease_until <= now, PushSubscription.paused_until <= now)
        ).subquery()  # fmt: skip
        turn = func.row_number().over(partition_by=ranked.c.player_id,
                                      order_by=(ranked.c.next_at, ranked.c.id))  # fmt: skip
        taken = (
            select(ranked.c.id, ranked.c.subscription_id, ranked.c.next_at, turn.label("turn"))
            .where(ranked.c.nth <= 2)
        ).subquery()  # fmt: skip
        query = (
            select(taken.c.id, PushSubscription.endpoint, PushSubscription.player_id)
            .join(PushSubscription, PushSubscription.id == taken.c.subscription_id)
            .order_by(taken.c.turn, taken.c.next_at, taken.c.id).limit(limit)
        )  # fmt: skip
        with connected(self.engine) as connection:
            rows = connection.execute(query).all()
        return [Candidate(r.id, r.endpoint, r.player_id) for r in rows]

    def lease(self, ids: list[str], lease_s: float) -> list[PushDue]:
        now = self.clock()
        until = now + lease_s
        if not ids:
            return []
        with connected(self.engine, write=True) as connection:
            taken = [i for i in ids if connection.execute(
                update(PushDelivery)
                .where(PushDelivery.id == i, PushDelivery.state == "pending",
                       PushDelivery.lease_until <= now)
                .values(lease_until=until, attempts=PushDelivery.attempts + 1)
            ).rowcount]  # fmt: skip
            rows = connection.execute(
                select(PushDelivery, PushSubscription.endpoint, PushSubscription.p256dh,
                       PushSubscription.auth)
                .join(PushSubscription, PushSubscription.id == PushDelivery.subscription_id)
                .where(PushDelivery.id.in_(taken))
            ).all()  # fmt: skip
        return [PushDue(r.id, r.subscription_id, r.player_id, r.endpoint, r.p256dh, r.auth,
                        r.event, r.payload, r.topic, r.urgency, r.ttl, r.attempts,
                        r.created_at, until) for r in rows]  # fmt: skip

    def finish_many(self, outcomes: list[PushOutcome], first_delay_s: float) -> list[str]:
        """Record what each push came to (``delivered``, ``retry``, ``stale``,
        ``gone``: its subscription removed, ``paused``: retried once the push
        service's Retry-After passed, or ``lost``), in one transaction."""
        with connected(self.engine, write=True) as connection:
            return [self._finish(connection, o, first_delay_s) for o in outcomes]

    def _finish(self, connection: Connection, outcome: PushOutcome, first_delay_s: float) -> str:
        now, due = self.clock(), outcome.due
        mine = (PushDelivery.id == due.id) & (PushDelivery.lease_until == due.lease_until)
        if outcome.status in (404, 410):  # the subscription is no more
            if connection.scalar(select(PushDelivery.id).where(mine)) is None:
                return "lost"
            _drop(connection, select(PushSubscription.id).where(
                PushSubscription.id == due.subscription_id))  # fmt: skip
            return "gone"
        values: dict[str, Any] = {"lease_until": 0.0, "status": outcome.status}
        # When it would be tried next; a push whose TTL ends first is stale, not kept.
        expires = due.created_at + due.ttl
        later = now + (outcome.retry_after if outcome.retry_after is not None
                       else retry_delay(due.attempts, first_delay_s, self.rng))  # fmt: skip
        result = "retry"
        if outcome.retry_after is not None:  # the push service asks everyone to wait
            connection.execute(update(PushSubscription)
                               .where(PushSubscription.id == due.subscription_id)
                               .values(paused_until=later))  # fmt: skip
        if outcome.ok:
            values["state"], result = "delivered", "delivered"
        elif later >= expires or (outcome.status is not None and 400 <= outcome.status < 500
                                  and outcome.retry_after is None):  # fmt: skip
            values["state"], result = "failed", "stale"  # outlives its TTL, or refused for good
        else:
            values["next_at"], result = later, "paused" if outcome.retry_after else "retry"
        done = connection.execute(update(PushDelivery).where(mine).values(**values))
        return result if done.rowcount else "lost"

    def queued(self) -> int:
        with connected(self.engine) as connection:
            count = connection.scalar(select(func.count()).where(PushDelivery.state == "pending"))
        return int(count or 0)

    def prune(self, before: float) -> int:
        """Forget pushes that were delivered or dropped, made before ``before``; how many."""
        with connected(self.engine, write=True) as connection:
            gone = connection.execute(delete(PushDelivery).where(
                PushDelivery.state != "pending", PushDelivery.created_at < before))  # fmt: skip
        return int(gone.rowcount or 0)

    # Preferences and keys

    def preferences(self, player_id: str) -> JSON | None:
        with connected(self.engine) as connection:
            found = connection.scalar(select(NotificationPreferences.settings).where(
                NotificationPreferences.player_id == player_id))  # fmt: skip
        return None if found is None else dict(json.loads(found))

    def set_preferences(self, player_id: str, settings: JSON) -> None:
        text, now = json.dumps(settings, sort_keys=True), self.clock()
        with connected(self.engine, write=True) as connection:
            done = connection.execute(
                update(NotificationPreferences)
                .where(NotificationPreferences.player_id == player_id)
                .values(settings=text, updated_at=now)
            )  # fmt: skip
            if not done.rowcount:
                connection.execute(insert(NotificationPreferences).values(
                    player_id=player_id, settings=text, updated_at=now))  # fmt: skip

    def server_key(self, name: str, make: Callable[[], str]) -> str:
        """The server's key ``name``, made with ``make`` the first time it is asked
        (by whichever process asks first: every process gets that one)."""
        with connected(self.engine) as connection:
            found = connection.scalar(select(ServerKey.value).where(ServerKey.name == name))
        if found is not None:
            return str(found)
        with connected(self.engine, write=True) as connection:
            statement = insert_ignoring(self.engine, ServerKey)
            connection.execute(
                statement, [{"name": name, "value": make(), "created_at": self.clock()}]
            )
            return str(connection.scalar(select(ServerKey.value).where(ServerKey.name == name)))


def drop_pushes(connection: Connection, player_id: str) -> None:
    """Every subscription of the account (its preferences too), in the caller's
    transaction (a closed or deleted account's)."""
    _drop(connection, select(PushSubscription.id).where(PushSubscription.player_id == player_id))
    connection.execute(delete(NotificationPreferences).where(
        NotificationPreferences.player_id == player_id))  # fmt: skip


def _cap_backlog(connection: Connection, subscription_id: str, now: float) -> None:
    """Drop the oldest of a subscription's pending pushes past ``MAX_BACKLOG`` (not
    one under way): a push service that fails holds a bounded pile."""
    pending = ((PushDelivery.subscription_id == subscription_id)
               & (PushDelivery.state == "pending"))  # fmt: skip
    count = connection.scalar(select(func.count()).where(pending)) or 0
    if count > MAX_BACKLOG:
        oldest = connection.scalars(
            select(PushDelivery.id).where(pending, PushDelivery.lease_until <= now)
            .order_by(PushDelivery.created_at, PushDelivery.id).limit(count - MAX_BACKLOG)
        ).all()  # fmt: skip
        connection.execute(update(PushDelivery).where(PushDelivery.id.in_(oldest))
                           .values(state="failed"))  # fmt: skip


def _drop(connection: Connection, subscriptions: Any) -> None:
    """Delete the subscriptions ``subscriptions`` selects, with their queued pushes;
    both locked first, the pushes then the subscriptions, so that a push queued
    meanwhile cannot fail the deletion (as ``webhooks.drop``)."""
    queued = PushDelivery.subscription_id.in_(subscriptions)
    chosen = PushSubscription.id.in_(subscriptions)
    connection.execute(select(PushDelivery.id).where(queued).with_for_update())
    connection.execute(select(PushSubscription.id).where(chosen).with_for_update())
    connection.execute(delete(PushDelivery).where(queued))
    connection.execute(delete(PushSubscription).where(chosen))


def _shown(row: Any) -> JSON:
    """A subscription as its owner sees it (never its keys)."""
    events = row["events"].split(",") if isinstance(row["events"], str) else list(row["events"])
    return {"id": row["id"], "endpoint": row["endpoint"], "events": events,
            "created_at": row["created_at"]}  # fmt: skip
