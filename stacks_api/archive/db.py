"""The archive's database: PostgreSQL when ``DATABASE_URL`` names one, else an
SQLite file in the data directory; and the migrations that bring it up to date.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_FILE = "archive.sqlite3"


def data_dir() -> Path:
    """Where the embedded archive lives: ``STACKS_DATA_DIR``, else
    ``$XDG_DATA_HOME/stacks_api`` (``~/.local/share/stacks_api``)."""
    given = os.environ.get("STACKS_DATA_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "stacks_api"


def database_url(given: str | None) -> str:
    """The SQLAlchemy URL of ``given`` (a plain ``postgresql://`` URL is read with
    psycopg 3), or of the SQLite file in the data directory."""
    if not given:
        folder = data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{folder / SQLITE_FILE}"
    for plain in ("postgresql://", "postgres://"):
        if given.startswith(plain):
            return "postgresql+psycopg://" + given[len(plain) :]
    return given


def connect(url: str | None, timeout_s: float = 5.0) -> Engine:
    """An engine for the archive, built once per process."""
    full = database_url(url)
    args: dict[str, Any] = {}
    if full.startswith("postgresql"):
        # A database that does not answer fails a write in seconds (archiving
        # retries later); it never holds a worker for minutes.
        args["connect_args"] = {
            "connect_timeout": max(1, int(timeout_s)),
            "options": f"-c statement_timeout={int(timeout_s * 1000)}",
        }
        # A pooled connection is pinged as it is taken (a round trip per
        # transaction, well under a millisecond on a near server): one the server
        # dropped while it was away is replaced there, so the first request after
        # the database returns is answered, not refused with a 503.
        args["pool_pre_ping"] = True
    else:
        args["connect_args"] = {"timeout": timeout_s, "check_same_thread": False}
    engine = create_engine(full, **args)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(connection: Any, record: Any) -> None:
    # WAL lets readers go on while the archiver writes; foreign keys are off by
    # default in SQLite.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _alembic(engine: Engine) -> AlembicConfig:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine) -> None:
    """Bring the database's tables up to the newest migration (an empty database
    gets them all)."""
    command.upgrade(_alembic(engine), "head")


def is_current(engine: Engine) -> bool:
    """Whether the database is at the newest migration."""
    head = ScriptDirectory.from_config(_alembic(engine)).get_current_head()
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision() == head
