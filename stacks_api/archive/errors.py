"""The archive's one failure, as the rest of the server sees it: the database is
unavailable (down, slow past its timeout, refusing), a 503 like the live store's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from ..store import StoreUnavailable


class ArchiveUnavailable(StoreUnavailable):
    """The archive's database cannot be used now."""

    store = "archive"  # the metrics' label (the live store's failures say "live")


@contextmanager
def connected(engine: Engine, write: bool = False) -> Iterator[Connection]:
    """A connection (in a transaction committed at the end when ``write``); any
    database failure inside becomes ``ArchiveUnavailable``."""
    try:
        with engine.begin() if write else engine.connect() as connection:
            yield connection
    except SQLAlchemyError as err:
        raise ArchiveUnavailable(f"the archive's database failed ({type(err).__name__})") from err
