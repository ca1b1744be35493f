"""What ``stacks-api db upgrade`` and ``stacks-api ratings recompute`` do."""

from __future__ import annotations

import time

from ..competition.ratings import Establishment, Starts, fresh
from .db import connect, upgrade
from .ratings import RatingBook


def migrate(url: str | None, timeout_s: float) -> str:
    """Bring the archive's database up to date; where it is."""
    engine = connect(url, timeout_s)
    upgrade(engine)
    engine.dispose()
    return engine.url.render_as_string(hide_password=True)


def recompute(
    url: str | None, timeout_s: float, starts: Starts = fresh,
    establishment: Establishment | None = None,
) -> str:  # fmt: skip
    """Rebuild every rating from the archive's rated games (weighing opponents as the
    server does: ``establishment``); what was done."""
    engine = connect(url, timeout_s)
    upgrade(engine)
    started = time.perf_counter()
    book = RatingBook(engine, starts=starts)
    book.establishment = establishment or book.establishment
    games = book.recompute()
    engine.dispose()
    return f"rebuilt the ratings of {games} rated games in {time.perf_counter() - started:.1f} s"
