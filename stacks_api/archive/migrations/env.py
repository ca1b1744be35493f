"""Alembic's entry point for the archive: run online against the engine the
server passes in (``stacks_api.archive.db.upgrade``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

# Importing the tables module registers every table of the archive on Base.
from stacks_api.archive.tables import Base

# Any number of processes may start at once against one PostgreSQL: the first
# migrates, the others wait for it here and then find nothing to do.
MIGRATION_LOCK = 7_355_608

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    # Batch mode rebuilds a table where SQLite cannot alter it in place.
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=True)  # fmt: skip
    with context.begin_transaction():
        context.run_migrations()
