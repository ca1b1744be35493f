"""Player accounts and their keys.

A key is ``stk_<key id>_<secret>``: the prefix makes a leaked key easy to spot
(and to tell from a seat token), the id finds the key's row, and only the
SHA-256 of the 192-bit secret is kept, compared in constant time. A revoked key
is refused on its very next request: every request reads the key's row (one
primary-key look-up), nothing is cached.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, case, func, insert, select, update

from ..model.record import JSON
from ..model.refusals import Refusal
from ..model.tokens import KEY_PREFIX, credential_parts, matches, token_hash
from .errors import connected
from .models import Player, PlayerKey

MAX_KEYS = 20  # live keys per player


class Accounts:
    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def create(self, name: str, label: str) -> tuple[JSON, str]:
        """A new player with one key; the key is returned only here."""
        player: JSON = {"id": secrets.token_hex(8), "name": name, "created_at": self.clock()}
        with connected(self.engine, write=True) as connection:
            connection.execute(insert(Player).values(player))
            key = self._new_key(connection, player["id"], label)
        return player, key

    def player(self, player_id: str) -> JSON | None:
        """The account (``closed`` and ``deleted``: the times, or None)."""
        with connected(self.engine) as connection:
            found = connection.execute(
                select(Player.id, Player.name, Player.created_at, Player.closed_at,
                       Player.deleted_at, Player.accepts_challenges, Player.bot)
                .where(Player.id == player_id)
            ).first()  # fmt: skip
        return None if found is None else _player_json(found)

    def search(self, text: str, limit: int) -> list[JSON]:
        """Open accounts whose name holds ``text`` (any case): the name itself
        first, then names that begin with it, then the rest; shorter names first."""
        wanted = text.lower()
        name = func.lower(Player.name)
        closeness = case(
            (name == wanted, 0), (name.startswith(wanted, autoescape=True), 1), else_=2
        )
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Player.id, Player.name, Player.created_at, Player.closed_at,
                       Player.deleted_at, Player.accepts_challenges, Player.bot)
                .where(name.contains(wanted, autoescape=True), Player.closed_at.is_(None),
                       Player.deleted_at.is_(None))
                .order_by(closeness, func.length(Player.name), name, Player.id)
                .limit(limit)
            ).all()  # fmt: skip
        return [_player_json(row) for row in rows]

    def closed_since(self, since: float) -> list[str]:
        """The accounts closed (or deleted) after ``since``."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Player.id).where(Player.closed_at > since).order_by(Player.closed_at)
            ).all()
        return [row.id for row in rows]

    def set_challenges(self, player_id: str, accepts: bool) -> None:
        """Whether the player takes challenges from anyone (True) or from nobody."""
        with connected(self.engine, write=True) as connection:
            connection.execute(
                update(Player).where(Player.id == player_id).values(accepts_challenges=accepts)
            )

    def set_bot(self, player_id: str) -> None:
        """Make the account a bot account, for good."""
        with connected(self.engine, write=True) as connection:
            connection.execute(update(Player).where(Player.id == player_id).values(bot=True))

    def bots_among(self, player_ids: list[str]) -> set[str]:
        """Which of ``player_ids`` are bot accounts."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(Player.id).where(Player.id.in_(player_ids), Player.bot.is_(True))
            ).all()
        return {row.id for row in rows}

    def player_of(self, key: str) -> str | None:
        """The player a key acts for; None for a malformed, unknown or revoked key.
        A closed account's key is refused (403 ``account_closed``)."""
        key_id, secret = credential_parts(key)
        if not key_id or not secret or len(key) > 100:
            return None
        with connected(self.engine) as connection:
            row = connection.execute(
                select(PlayerKey.player_id, PlayerKey.secret_hash, PlayerKey.revoked_at,
                       Player.closed_at)
                .join(Player, Player.id == PlayerKey.player_id)
                .where(PlayerKey.id == key_id)
            ).first()  # fmt: skip
        if row is None or row.revoked_at is not None:
            return None
        if not matches(secret, row.secret_hash):
            return None
        if row.closed_at is not None:
            raise Refusal("account_closed", "this account was closed by the server's operators")
        return str(row.player_id)

    def add_key(self, player_id: str, label: str) -> tuple[JSON, str]:
        """A new key for the player: its listing entry and the key itself."""
        with connected(self.engine, write=True) as connection:
            live = connection.scalar(
                select(func.count()).where(
                    PlayerKey.player_id == player_id, PlayerKey.revoked_at.is_(None)
                )
            )
            if (live or 0) >= MAX_KEYS:
                raise Refusal("too_many_keys", f"a player holds at most {MAX_KEYS} keys: "
                                               "revoke one first")  # fmt: skip
            key = self._new_key(connection, player_id, label)
        entry = next(k for k in self.keys(player_id) if key.startswith(f"{KEY_PREFIX}{k['id']}_"))
        return entry, key

    def keys(self, player_id: str) -> list[JSON]:
        """The player's keys that still work, oldest first (never their secrets)."""
        with connected(self.engine) as connection:
            rows = connection.execute(
                select(PlayerKey.id, PlayerKey.label, PlayerKey.created_at)
                .where(PlayerKey.player_id == player_id, PlayerKey.revoked_at.is_(None))
                .order_by(PlayerKey.created_at, PlayerKey.id)
            ).all()
        return [{"id": r.id, "label": r.label, "created_at": r.created_at} for r in rows]

    def revoke(self, player_id: str, key_id: str) -> bool:
        """Revoke one of the player's keys; False when it has no such live key."""
        with connected(self.engine, write=True) as connection:
            done = connection.execute(
                update(PlayerKey)
                .where(
                    PlayerKey.id == key_id,
                    PlayerKey.player_id == player_id,
                    PlayerKey.revoked_at.is_(None),
                )
                .values(revoked_at=self.clock())
            )
        return bool(done.rowcount)

    def _new_key(self, connection: Connection, player_id: str, label: str) -> str:
        key_id, secret = secrets.token_hex(6), secrets.token_urlsafe(24)
        row = {"id": key_id, "player_id": player_id, "label": label,
               "secret_hash": token_hash(secret), "created_at": self.clock()}  # fmt: skip
        connection.execute(insert(PlayerKey).values(row))
        return f"{KEY_PREFIX}{key_id}_{secret}"


def _player_json(player: Any) -> JSON:
    return {
        "id": player.id,
        "name": player.name,
        "created_at": player.created_at,
        "closed": player.closed_at is not None,
        "deleted": player.deleted_at is not None,
        "accepts_challenges": player.accepts_challenges,
        "bot": bool(player.bot),
    }
