"""The access other apps hold, and the OAuth flow's codes.

A token is ``<prefix><grant id>_<secret>``, like a player key: the id finds the
row, only the SHA-256 of the secret is kept and compared in constant time, and
every request reads the row (nothing is cached), so a revoked grant is refused
on its very next request by every worker. An authorization code is kept only
as its SHA-256; taking it marks it used in the same statement that checks it
was not, so two exchanges of one code cannot both succeed, and a second use
revokes what the first was given.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, func, insert, select, update

from ..model.grants import Code, Holder
from ..model.record import JSON
from ..model.refusals import Refusal
from ..model.tokens import credential_parts, matches, token_hash
from .errors import connected
from .models import Player
from .models_grants import AuthorizationCode, Grant

MAX_GRANTS = 50  # live grants an account holds (apps and personal tokens)
SEEN_EVERY_S = 60.0  # how often a grant's "last used" is written


class GrantBook:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def issue(
        self, player_id: str, kind: str, app: str, scopes: frozenset[str], prefix: str,
        expires_in: float | None = None, code_hash: str | None = None,
    ) -> tuple[JSON, str]:  # fmt: skip
        """A new grant and its token (the token is shown only here)."""
        now = self.clock()
        grant_id, secret = secrets.token_hex(6), secrets.token_urlsafe(24)
        row = {"id": grant_id, "player_id": player_id, "kind": kind, "app": app,
               "scopes": " ".join(sorted(scopes)), "secret_hash": token_hash(secret),
               "created_at": now, "code_hash": code_hash,
               "expires_at": None if expires_in is None else now + expires_in}  # fmt: skip
        with connected(self.engine, write=True) as connection:
            live = connection.scalar(select(func.count()).where(*self._live(player_id, now)))
            if (live or 0) >= MAX_GRANTS:
                raise Refusal("too_many_grants", f"an account holds at most {MAX_GRANTS} "
                                                 "apps and tokens: revoke one first")  # fmt: skip
            connection.execute(insert(Grant).values(row))
        return _grant_json(Grant(**row)), f"{prefix}{grant_id}_{secret}"

    def holder(self, token: str) -> Holder | None:
        """Whom ``token`` acts for; None when malformed, unknown, expired or revoked.
        A closed account's token is refused (403 ``account_closed``)."""
        grant_id, secret = credential_parts(token)
        if not grant_id or not secret or len(token) > 100:
            return None
        now = self.clock()
        with connected(self.engine) as connection:
            row = connection.execute(
                select(Grant.player_id, Grant.scopes, Grant.secret_hash, Grant.revoked_at,
                       Grant.expires_at, Grant.last_used_at, Player.closed_at, Player.bot)
                .join(Player, Player.id == Grant.player_id).where(Grant.id == grant_id)
            ).first()  # fmt: skip
        if row is None or row.revoked_at is not None:
            return None
        if row.expires_at is not None and row.expires_at <= now:
            return None
        if not matches(secret, row.secret_hash):
            return None
        if row.closed_at is not None:
            raise Refusal("account_closed", "this account was closed by the server's operators")
        if row.last_used_at is None or now - row.last_used_at >= SEEN_EVERY_S:
            with connected(self.engine, write=True) as connection:
                connection.execute(
                    update(Grant).where(Grant.id == grant_id).values(last_used_at=now)
                )
        return Holder(str(row.player_id), frozenset(row.scopes.split()), bool(row.bot))

    def of(self, player_id: str) -> list[JSON]:
        """The account's live grants, newest first (never their secrets)."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Grant).where(*self._live(player_id, self.clock()))
                .order_by(Grant.created_at.desc(), Grant.id)
            ).all()  # fmt: skip
        return [_grant_json(row) for row in rows]

    def revoke(self, player_id: str, grant_id: str) -> bool:
        """Revoke one of the account's grants; False when it holds no such live one."""
        with connected(self.engine, write=True) as connection:
            done = connection.execute(
                update(Grant)
                .where(Grant.id == grant_id, Grant.player_id == player_id,
                       Grant.revoked_at.is_(None))
                .values(revoked_at=self.clock())
            )  # fmt: skip
        return bool(done.rowcount)

    def revoke_token(self, token: str) -> bool:
        """Revoke the grant of ``token`` (whoever holds a token may end it)."""
        grant_id, secret = credential_parts(token)
        with connected(self.engine, write=True) as connection:
            row = connection.execute(
                select(Grant.secret_hash).where(Grant.id == grant_id, Grant.revoked_at.is_(None))
            ).first()
            if row is None or not matches(secret, row.secret_hash):
                return False
            connection.execute(
                update(Grant).where(Grant.id == grant_id).values(revoked_at=self.clock())
            )
        return True

    def revoke_all(self, player_id: str) -> None:
        """Revoke every grant of an account (closed or deleted)."""
        with connected(self.engine, write=True) as connection:
            connection.execute(
                update(Grant).where(Grant.player_id == player_id, Grant.revoked_at.is_(None))
                .values(revoked_at=self.clock())
            )  # fmt: skip

    def save_code(self, code: str, player_id: str, client_id: str, redirect_uri: str,
                  scopes: str, challenge: str, lifetime_s: float) -> None:  # fmt: skip
        now = self.clock()
        row = {"code_hash": token_hash(code), "player_id": player_id, "client_id": client_id,
               "redirect_uri": redirect_uri, "scopes": scopes, "challenge": challenge,
               "created_at": now, "expires_at": now + lifetime_s}  # fmt: skip
        with connected(self.engine, write=True) as connection:
            connection.execute(insert(AuthorizationCode).values(row))

    def take_code(self, code: str) -> Code | None:
        """The code, marked used; None if unknown, expired or used before (a second
        use also revokes the grant the first one was given)."""
        code_hash, now = token_hash(code), self.clock()
        with connected(self.engine, write=True) as connection:
            taken = connection.execute(
                update(AuthorizationCode)
                .where(AuthorizationCode.code_hash == code_hash,
                       AuthorizationCode.used_at.is_(None),
                       AuthorizationCode.expires_at > now)
                .values(used_at=now)
            )  # fmt: skip
            if not taken.rowcount:
                connection.execute(
                    update(Grant).where(Grant.code_hash == code_hash, Grant.revoked_at.is_(None))
                    .values(revoked_at=now)
                )  # fmt: skip
                return None
            row = connection.execute(
                select(AuthorizationCode).where(AuthorizationCode.code_hash == code_hash)
            ).one()
        return Code(row.player_id, row.client_id, row.redirect_uri, row.scopes, row.challenge,
                    code_hash)  # fmt: skip

    @staticmethod
    def _live(player_id: str, now: float) -> tuple[Any, ...]:
        expiry = Grant.expires_at.is_(None) | (Grant.expires_at > now)
        return Grant.player_id == player_id, Grant.revoked_at.is_(None), expiry


def _grant_json(grant: Any) -> JSON:
    return {
        "id": grant.id,
        "kind": grant.kind,
        "app": grant.app,
        "scopes": grant.scopes.split(),
        "created_at": grant.created_at,
        "expires_at": grant.expires_at,
        "last_used_at": grant.last_used_at,
    }
