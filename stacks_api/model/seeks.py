"""A quick-pairing request (a "seek") and its JSON form, the one the stores keep
(Redis's scripts read and change it in place, so its keys are part of the store's
format)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from .record import JSON


@dataclass(frozen=True)
class Seek:
    """One player's wait for a game of one pool; once paired, where it sat them."""

    id: str
    player_id: str
    name: str
    pool: str
    variant: str
    players: int
    rated: bool
    turn_seconds: int | None
    days: int | None
    rating: float
    since: float
    expires_at: float
    status: str = "waiting"
    closed_at: float | None = None
    game_id: str | None = None
    seat: int | None = None
    group: tuple[str, ...] = ()  # every seek paired into the game, in seat order

    @property
    def waiting(self) -> bool:
        return self.status == "waiting"

    def to_json(self) -> JSON:
        data = asdict(self)
        data["group"] = list(self.group)
        return data

    @classmethod
    def from_json(cls, data: JSON) -> Seek:
        known = {f.name for f in fields(cls)}  # a key of a later version is left out
        values = {k: v for k, v in data.items() if k in known}
        # Lua's cjson writes an empty array back as {}: either is no group.
        return cls(**{**values, "group": tuple(data.get("group") or ())})

    def shown(self) -> JSON:
        """The seek as its player sees it."""
        return {
            "id": self.id, "status": self.status, "variant": self.variant,
            "players": self.players, "rated": self.rated, "turn_seconds": self.turn_seconds,
            "days": self.days, "rating": self.rating, "since": self.since,
            "expires_at": self.expires_at, "game_id": self.game_id, "seat": self.seat,
        }  # fmt: skip
