"""The archive's tables for access other apps hold: the grants (an app's access
token, or a personal token, each with its scopes) and the short-lived
authorization codes of the OAuth flow. Only hashes of tokens and codes are kept."""

from __future__ import annotations

from sqlalchemy import Double, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base

__all__ = ["AuthorizationCode", "Base", "Grant"]


class Grant(Base):
    """Access to one account: a token (``sta_`` from the OAuth flow, ``stp_`` made by
    its person) that acts within its scopes until it expires or is revoked."""

    __tablename__ = "grants"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))  # oauth, personal
    app: Mapped[str] = mapped_column(String(200))  # the client_id, or the token's label
    scopes: Mapped[str] = mapped_column(String(100))  # space-separated
    secret_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Double)
    expires_at: Mapped[float | None] = mapped_column(Double, default=None)
    last_used_at: Mapped[float | None] = mapped_column(Double, default=None)
    revoked_at: Mapped[float | None] = mapped_column(Double, default=None)
    # The authorization code it was issued for: a code used twice revokes it.
    code_hash: Mapped[str | None] = mapped_column(String(64), default=None, index=True)


class AuthorizationCode(Base):
    """A code the consent issued: single-use, short-lived, bound to its app, its
    redirect and its PKCE challenge."""

    __tablename__ = "authorization_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    client_id: Mapped[str] = mapped_column(String(200))
    redirect_uri: Mapped[str] = mapped_column(String(1000))
    scopes: Mapped[str] = mapped_column(String(100))
    challenge: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[float] = mapped_column(Double)
    expires_at: Mapped[float] = mapped_column(Double)
    used_at: Mapped[float | None] = mapped_column(Double, default=None)
