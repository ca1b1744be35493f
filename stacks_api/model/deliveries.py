"""Deliveries of webhooks and pushes as their queues hand them out, and what
came of an attempt."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    """A due delivery not yet leased: where it goes and for whom."""

    id: str
    url: str
    player_id: str


@dataclass(frozen=True)
class Due:
    """A leased delivery, with what sending it needs."""

    id: str
    webhook_id: str
    player_id: str
    url: str
    secret: str
    event: str
    payload: str
    attempts: int
    created_at: float
    lease_until: float


@dataclass(frozen=True)
class Attempt:
    """One attempt at a leased delivery, as it is recorded."""

    due: Due
    ok: bool
    status: int | None
    error: str | None
    duration_ms: float


@dataclass(frozen=True)
class PushDue:
    """A leased push, with what encrypting and sending it needs."""

    id: str
    subscription_id: str
    player_id: str
    endpoint: str
    p256dh: str
    auth: str
    event: str
    payload: str
    topic: str
    urgency: str
    ttl: int
    attempts: int
    created_at: float
    lease_until: float


@dataclass(frozen=True)
class PushOutcome:
    """What came of one push: the push service's status (None: no answer), whether
    it took it, and how long it asked us to wait (a 429's Retry-After)."""

    due: PushDue
    ok: bool
    status: int | None
    retry_after: float | None = None
