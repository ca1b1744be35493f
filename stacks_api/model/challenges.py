"""A challenge from one player to another, its answer, and their JSON form, the one
the stores keep (Redis's scripts read and change it in place, so its keys, ``from``
and ``to`` among them, are part of the store's format)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields

from .record import JSON

# The JSON key of each field whose name differs from it.
_KEYS = {
    "challenger": "from", "challenger_name": "from_name", "challenger_token": "from_token",
    "challenger_entropy": "entropy", "challenged": "to", "challenged_name": "to_name",
    "challenged_token": "to_token", "challenged_entropy": "to_entropy",
}  # fmt: skip


@dataclass(frozen=True)
class Answer:
    """What an answer sets on a pending challenge (an expiry sets nothing)."""

    answered_at: float | None = None
    game_id: str | None = None  # an acceptance's game
    challenged_token: str | None = None  # the hash of the accepter's seat token
    challenged_entropy: str | None = None

    def to_json(self) -> JSON:
        given = {k: v for k, v in vars(self).items() if v is not None}
        return {_KEYS.get(k, k): v for k, v in given.items()}


@dataclass(frozen=True)
class Challenge:
    """A challenge and, once answered, its answer. The deal's server seed is kept
    here from the start: never shown before its game ends."""

    id: str
    challenger: str
    challenger_name: str
    challenged: str
    challenged_name: str
    variant: str
    players: int
    rated: bool
    turn_seconds: float | None
    days: int | None
    unlisted: bool
    server_seed: str
    commitment: str
    challenger_entropy: str | None
    challenger_token: str  # the hash of the challenger's seat token
    created_at: float
    expires_at: float
    status: str = "pending"  # then accepted, declined, cancelled or expired
    answered_at: float | None = None
    game_id: str | None = None
    challenged_token: str | None = None
    challenged_entropy: str | None = None
    # "duplicate": each player plays the same deal against a ``bot`` of that level.
    deals: str = "standard"
    bot: str | None = None

    @property
    def duplicate(self) -> bool:
        return self.deals == "duplicate"

    @property
    def pending(self) -> bool:
        return self.status == "pending"

    def status_at(self, now: float) -> str:
        """The status at ``now``: a pending challenge past its time has expired."""
        return "expired" if self.pending and now >= self.expires_at else self.status

    def answered(self, status: str, answer: Answer) -> Challenge:
        """The challenge once ``answer`` settled it as ``status``."""
        return Challenge.from_json({**self.to_json(), **answer.to_json(), "status": status})

    def to_json(self) -> JSON:
        return {_KEYS.get(k, k): v for k, v in vars(self).items()}

    @classmethod
    def from_json(cls, data: JSON) -> Challenge:
        names = {key: name for name, key in _KEYS.items()}
        known = {f.name for f in fields(cls)}  # a key of a later version is left out
        given = {names.get(k, k): v for k, v in data.items()}
        return cls(**{k: v for k, v in given.items() if k in known})

    def shown(self) -> JSON:
        """The challenge as its two players see it (the server seed stays secret)."""
        return {
            "id": self.id, "status": self.status, "from": self.challenger,
            "from_name": self.challenger_name, "to": self.challenged,
            "to_name": self.challenged_name, "variant": self.variant, "players": self.players,
            "rated": self.rated, "turn_seconds": self.turn_seconds, "days": self.days,
            "commitment": self.commitment, "created_at": self.created_at,
            "expires_at": self.expires_at, "game_id": self.game_id, "deals": self.deals,
            "bot": self.bot, "match_id": self.id if self.duplicate else None,
        }  # fmt: skip


def match_games(match_id: str) -> tuple[str, str]:
    """The two games of a duplicate challenge (the match's id is the challenge's):
    the challenger's, then the challenged player's, each named from the match, so
    that the match is found from its id alone once the challenge is forgotten."""
    return tuple(  # type: ignore[return-value]
        hashlib.sha256(f"{match_id}:{n}".encode()).hexdigest()[:16] for n in (0, 1)
    )
