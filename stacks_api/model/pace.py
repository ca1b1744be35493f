"""Games over days: how long a turn lasts, the vacation bank, and when a person is
reminded. Pure arithmetic, shared by the service, the archive and the API."""

from __future__ import annotations

DAY_S = 86_400.0
# Days a person has for each turn of a days game.
DAYS = (1, 2, 3, 5, 7, 10, 14)

# The vacation bank: what an account starts with, holds at most, and earns a year.
VACATION_START = 10.0
VACATION_MOST = 30.0
VACATION_A_YEAR = 30.0
YEAR_S = 365.0 * DAY_S


def banked(days: float, since: float, now: float) -> float:
    """The vacation days in a bank that held ``days`` at ``since``, at ``now``: it
    earns ``VACATION_A_YEAR`` a year, prorated, up to ``VACATION_MOST``."""
    earned = max(0.0, now - since) / YEAR_S * VACATION_A_YEAR
    return min(VACATION_MOST, days + earned)


def reminder_at(deadline: float, days: int) -> float:
    """When a person to move is reminded: once a quarter of their time, or 24 hours,
    whichever is less, remains before ``deadline``."""
    return deadline - min(days * DAY_S / 4, DAY_S)
