"""Alembic's entry point for the archive: run online against the engine the
server passes in (``stacks_api.archive.db.upgrade``)."""

from __future__ import annotations

from alembic import context

from stacks_api.archive.models import Base

engine = context.config.attributes["engine"]
with engine.begin() as connection:
    # Batch mode rebuilds a table where SQLite cannot alter it in place.
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=True)  # fmt: skip
    with context.begin_transaction():
        context.run_migrations()
