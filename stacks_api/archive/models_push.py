"""The archive's tables for telling people when no app of theirs is open: Web Push
subscriptions and the durable queue of their pushes, each account's notification
preferences, and the keys the server makes once and keeps (its VAPID key)."""

from __future__ import annotations

from sqlalchemy import Double, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base

__all__ = ["Base", "NotificationPreferences", "PushDelivery", "PushSubscription", "ServerKey"]


class PushSubscription(Base):
    """A browser's push subscription (its endpoint and keys), for one account."""

    __tablename__ = "push_subscriptions"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1000))
    p256dh: Mapped[str] = mapped_column(String(120))
    auth: Mapped[str] = mapped_column(String(40))
    events: Mapped[str] = mapped_column(String(300))  # comma-separated
    created_at: Mapped[float] = mapped_column(Double)
    # A push service that answered 429 asked us to wait until then.
    paused_until: Mapped[float] = mapped_column(Double, default=0.0)


class PushDelivery(Base):
    """One push to send to one subscription: its plaintext (never a card), its
    headers' values, and its place in the queue (leased like a webhook's)."""

    __tablename__ = "push_deliveries"

    id: Mapped[str] = mapped_column(String(48), primary_key=True)
    subscription_id: Mapped[str] = mapped_column(ForeignKey("push_subscriptions.id"))
    player_id: Mapped[str] = mapped_column(String(24))
    event: Mapped[str] = mapped_column(String(32))
    payload: Mapped[str] = mapped_column(Text)
    topic: Mapped[str] = mapped_column(String(32))
    urgency: Mapped[str] = mapped_column(String(8))
    ttl: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(10))  # pending, delivered, failed, gone
    created_at: Mapped[float] = mapped_column(Double)
    next_at: Mapped[float] = mapped_column(Double)
    lease_until: Mapped[float] = mapped_column(Double, default=0.0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[int | None] = mapped_column(Integer, default=None)  # the last answer

    __table_args__ = (
        Index("ix_push_deliveries_state_next_at", "state", "next_at"),
        Index("ix_push_deliveries_subscription_id_state", "subscription_id", "state"),
    )


class NotificationPreferences(Base):
    """An account's choices: the channels each kind of event goes to, and quiet hours
    (JSON, as ``GET /players/me/notifications`` shows it)."""

    __tablename__ = "notification_preferences"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    settings: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[float] = mapped_column(Double)


class ServerKey(Base):
    """A secret the server made once and keeps, by name (``vapid``: its VAPID key)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Double)
