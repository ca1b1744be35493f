"""What the operators and the players themselves do to accounts: reports, closing,
renaming, deleting, and a player's export of everything kept about them.

Each change is one transaction: a deletion revokes the keys, removes the
webhooks (with their deliveries) and the reports the player filed, takes the
player out of every tournament, and gives the player's seats in every archived
game and tournament ``DELETED_NAME``, or none of it.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator

from sqlalchemy import Engine, delete, func, insert, select, update

from ..model.record import JSON, HistoryQuery
from ..model.refusals import Refusal
from .errors import connected
from .models import (
    GameSeat,
    Player,
    PlayerKey,
    PlayerRating,
    Report,
    Webhook,
)
from .models_grants import Grant
from .models_push import NotificationPreferences, PushSubscription
from .names import DELETED_NAME, rename_seats
from .pushes import drop_pushes
from .tournaments import take_out
from .webhooks import drop

REPORTS_PER_DAY = 10  # a reporter files at most this many reports in 24 hours


class Moderation:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    # Reports

    def report(self, reporter_id: str, player_id: str, reason: str, game_id: str | None) -> JSON:
        now = self.clock()
        row: JSON = {"id": secrets.token_hex(8), "reporter_id": reporter_id,
                     "player_id": player_id, "game_id": game_id, "reason": reason,
                     "created_at": now}  # fmt: skip
        with connected(self.engine, write=True) as connection:
            filed = connection.scalar(
                select(func.count()).where(
                    Report.reporter_id == reporter_id, Report.created_at > now - 86400
                )
            )
            if (filed or 0) >= REPORTS_PER_DAY:
                raise Refusal("rate_limited", f"you filed {REPORTS_PER_DAY} reports in the "
                                              "last 24 hours; try again later")  # fmt: skip
            connection.execute(insert(Report).values(row))
        return row

    def reports(self, include_resolved: bool = False) -> list[JSON]:
        """Reports, oldest first, each with the reported player's name and state."""
        query = (
            select(Report, Player.name, Player.closed_at)
            .join(Player, Player.id == Report.player_id)
            .order_by(Report.created_at, Report.id)
        )
        if not include_resolved:
            query = query.where(Report.resolved_at.is_(None))
        with connected(self.engine) as connection:
            rows = connection.execute(query).all()
        return [
            {"id": r.id, "player_id": r.player_id, "name": r.name,
             "closed": r.closed_at is not None, "reporter_id": r.reporter_id,
             "game_id": r.game_id, "reason": r.reason,
             "created_at": r.created_at, "resolved_at": r.resolved_at}
            for r in rows
        ]  # fmt: skip

    def resolve(self, report_id: str) -> bool:
        with connected(self.engine, write=True) as connection:
            done = connection.execute(
                update(Report).where(Report.id == report_id, Report.resolved_at.is_(None))
                .values(resolved_at=self.clock())
            )  # fmt: skip
        return bool(done.rowcount)

    # Accounts

    def close(self, player_id: str, reason: str) -> bool:
        """Close an account: its keys are refused (403 ``account_closed``), it leaves
        the leaderboards and its tournaments (``take_out``), its webhooks are
        removed, and the reports about it are resolved. False: no such open
        account. (What the live store holds of it, the service settles:
        ``service.closures``.)"""
        now = self.clock()
        with connected(self.engine, write=True) as connection:
            done = connection.execute(
                update(Player).where(Player.id == player_id, Player.closed_at.is_(None))
                .values(closed_at=now, closed_reason=reason)
            )  # fmt: skip
            if done.rowcount:
                connection.execute(
                    update(Report).where(Report.player_id == player_id,
                                         Report.resolved_at.is_(None)).values(resolved_at=now)
                )  # fmt: skip
                take_out(connection, player_id, now, forget=False)
                drop(connection, select(Webhook.id).where(Webhook.player_id == player_id))
                drop_pushes(connection, player_id)
        return bool(done.rowcount)

    def rename(self, player_id: str, name: str) -> int:
        """Rename an account and its seats in every archived game; how many games
        changed (-1: no such account, or a deleted one)."""
        with connected(self.engine, write=True) as connection:
            done = connection.execute(
                update(Player).where(Player.id == player_id, Player.deleted_at.is_(None))
                .values(name=name, renamed_at=self.clock())
            )  # fmt: skip
            if not done.rowcount:
                return -1
            return rename_seats(connection, player_id, name)

    def delete(self, player_id: str) -> None:
        """Delete an account, at its player's request (module docstring)."""
        now = self.clock()
        with connected(self.engine, write=True) as connection:
            connection.execute(
                update(Player).where(Player.id == player_id).values(
                    name=DELETED_NAME, deleted_at=now, closed_at=now,
                    closed_reason="deleted by its player",
                )
            )  # fmt: skip
            for credential in (PlayerKey, Grant):  # its keys, and the apps' and tokens'
                connection.execute(
                    update(credential).where(credential.player_id == player_id,
                                             credential.revoked_at.is_(None))
                    .values(revoked_at=now)
                )  # fmt: skip
            drop(connection, select(Webhook.id).where(Webhook.player_id == player_id))
            connection.execute(delete(Report).where(Report.reporter_id == player_id))
            rename_seats(connection, player_id, DELETED_NAME)
            take_out(connection, player_id, now, forget=True)
            drop_pushes(connection, player_id)

    def export(
        self, player_id: str, games: Callable[[HistoryQuery], Iterator[JSON]]
    ) -> Iterator[JSON]:
        """Everything kept about the account: profile, keys (never their secrets),
        ratings, webhooks (never their secrets), the reports it filed, then each
        of its ``games`` (record documents, newest first)."""
        with connected(self.engine) as connection:
            player = connection.execute(select(Player).where(Player.id == player_id)).one()
            keys = connection.execute(
                select(PlayerKey).where(PlayerKey.player_id == player_id)
                .order_by(PlayerKey.created_at)
            ).all()  # fmt: skip
            ratings = connection.execute(
                select(PlayerRating).where(PlayerRating.subject == player_id)
            ).all()
            hooks = connection.execute(select(Webhook).where(Webhook.player_id == player_id)).all()
            filed = connection.execute(select(Report).where(Report.reporter_id == player_id)).all()
            grants = connection.execute(
                select(Grant).where(Grant.player_id == player_id).order_by(Grant.created_at)
            ).all()
            subscriptions = connection.execute(
                select(PushSubscription).where(PushSubscription.player_id == player_id)
                .order_by(PushSubscription.created_at)
            ).all()  # fmt: skip
            chosen = connection.scalar(select(NotificationPreferences.settings).where(
                NotificationPreferences.player_id == player_id))  # fmt: skip
            archived = connection.scalar(
                select(func.count()).where(GameSeat.player_id == player_id)
            )
        yield {"type": "profile", "id": player.id, "name": player.name,
               "created_at": player.created_at, "closed_at": player.closed_at,
               "closed_reason": player.closed_reason, "archived_games": archived}  # fmt: skip
        for key in keys:
            yield {"type": "key", "id": key.id, "label": key.label,
                   "created_at": key.created_at, "revoked_at": key.revoked_at}  # fmt: skip
        for rating in ratings:
            yield {"type": "rating", "variant": rating.variant, "mu": rating.mu,
                   "sigma": rating.sigma, "games": rating.games,
                   "last_at": rating.last_at}  # fmt: skip
        for hook in hooks:
            yield {"type": "webhook", "id": hook.id, "url": hook.url,
                   "events": hook.events.split(","), "created_at": hook.created_at,
                   "disabled_at": hook.disabled_at}  # fmt: skip
        for report in filed:
            yield {"type": "report", "id": report.id, "player_id": report.player_id,
                   "game_id": report.game_id, "reason": report.reason,
                   "created_at": report.created_at}  # fmt: skip
        for grant in grants:  # apps and personal tokens: never a secret or its hash
            yield {"type": "grant", "id": grant.id, "kind": grant.kind, "app": grant.app,
                   "scopes": grant.scopes.split(), "created_at": grant.created_at,
                   "expires_at": grant.expires_at, "last_used_at": grant.last_used_at,
                   "revoked_at": grant.revoked_at}  # fmt: skip
        for subscription in subscriptions:  # the browser's endpoint, never its keys
            yield {"type": "push_subscription", "id": subscription.id,
                   "endpoint": subscription.endpoint, "events": subscription.events.split(","),
                   "created_at": subscription.created_at}  # fmt: skip
        if chosen is not None:
            yield {"type": "notification_preferences", **json.loads(chosen)}
        for document in games(HistoryQuery(player_id)):
            yield {"type": "game", "record": document}
