"""Webhook deliveries as the queue hands them out."""

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
