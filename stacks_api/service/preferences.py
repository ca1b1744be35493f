"""Each account's notification preferences: which channels each kind of event goes
to (``push``, ``webhook``), and quiet hours in which nothing is pushed (pushes
wait for their end; webhooks still go).

Kinds are the account feed's events, grouped: ``your_turn``, ``turn_reminder``,
``challenge`` (a challenge, and an answer to one of yours), ``game_ended``,
``tournament_starting`` (a tournament starts, or makes your game of a round) and
``chat`` (a line at one of your tables). Other events (a seek's, the account's
own) go to webhooks as each webhook chose, and are never pushed.
"""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..model.record import JSON
from ..model.refusals import validation_error
from .table import Table

CHANNELS = ("push", "webhook")
KINDS = ("your_turn", "turn_reminder", "challenge", "game_ended", "tournament_starting", "chat")
KIND_OF = {"your_turn": "your_turn", "turn_reminder": "turn_reminder", "challenge": "challenge",
           "challenge_answered": "challenge", "game_ended": "game_ended",
           "tournament_started": "tournament_starting", "tournament_round": "tournament_starting",
           "chat": "chat"}  # fmt: skip
DEFAULTS: JSON = {
    "events": {kind: ["webhook"] if kind == "chat" else list(CHANNELS) for kind in KINDS},
    "quiet_hours": None,
}
CLOCK = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")


def kind_of(event_type: str) -> str | None:
    """The preference an event falls under (None: never pushed)."""
    return KIND_OF.get(event_type)


def goes_to(preferences: JSON, event_type: str, channel: str) -> bool:
    """Whether an event of ``event_type`` goes to ``channel`` (events that no kind
    names go to webhooks only)."""
    kind = kind_of(event_type)
    if kind is None:
        return channel == "webhook"
    return channel in preferences["events"][kind]


def quiet_until(preferences: JSON, now: float) -> float | None:
    """The end of the quiet hours ``now`` falls in (None: it is not in them)."""
    quiet = preferences.get("quiet_hours")
    if not quiet:
        return None
    zone = ZoneInfo(quiet["tz"])
    local = dt.datetime.fromtimestamp(now, zone)
    start, end = (_minutes(quiet[k]) for k in ("from", "to"))
    minute = local.hour * 60 + local.minute
    inside = start <= minute < end if start < end else minute >= start or minute < end
    if not inside or start == end:
        return None
    wake = local.replace(hour=end // 60, minute=end % 60, second=0, microsecond=0)
    if wake <= local:
        wake += dt.timedelta(days=1)
    return wake.timestamp()


def _minutes(clock: str) -> int:
    hours, minutes = clock.split(":")
    return int(hours) * 60 + int(minutes)


class Preferences:
    def __init__(self, table: Table) -> None:
        self.table = table

    def of(self, player_id: str) -> JSON:
        """The account's preferences (the defaults, for what it never chose)."""
        kept = self.table.archive_for("accounts").pushes.preferences(player_id) or {}
        events = {**DEFAULTS["events"], **kept.get("events", {})}
        return {"events": events, "quiet_hours": kept.get("quiet_hours")}

    def change(self, player_id: str, changes: JSON) -> JSON:
        """Change some of the account's preferences (checked); all of them after."""
        current = self.of(player_id)
        events = dict(current["events"])
        for kind, channels in (changes.get("events") or {}).items():
            if kind not in KINDS:
                raise validation_error("events", f"{kind!r} is none of {', '.join(KINDS)}")
            if any(c not in CHANNELS for c in channels):
                raise validation_error("events", f"channels are {' and '.join(CHANNELS)}")
            events[kind] = sorted(set(channels))
        quiet = current["quiet_hours"]
        if "quiet_hours" in changes:
            quiet = _checked_quiet(changes["quiet_hours"])
        settings = {"events": events, "quiet_hours": quiet}
        self.table.archive_for("accounts").pushes.set_preferences(player_id, settings)
        return settings


def _checked_quiet(quiet: JSON | None) -> JSON | None:
    if quiet is None:
        return None
    for key in ("from", "to"):
        if not isinstance(quiet.get(key), str) or CLOCK.fullmatch(quiet[key]) is None:
            raise validation_error("quiet_hours", f"quiet_hours.{key} is a time such as 22:30")
    try:
        ZoneInfo(str(quiet.get("tz")))
    except (ZoneInfoNotFoundError, ValueError):
        raise validation_error("quiet_hours", "quiet_hours.tz is a time zone such as "
                                              "Europe/Bucharest") from None  # fmt: skip
    return {"from": quiet["from"], "to": quiet["to"], "tz": quiet["tz"]}
