"""The migrations build exactly the tables the models describe, and the newest one
goes down and up again, on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from stacks_api.archive.db import _alembic, connect, upgrade
from stacks_api.archive.tables import Base  # every table registered


def differences(engine) -> list[object]:  # type: ignore[no-untyped-def]
    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))


def test_the_migrations_make_the_models_tables(database_url):
    engine = connect(database_url)
    try:
        upgrade(engine)
        assert differences(engine) == []
        command.downgrade(_alembic(engine), "-1")
        assert differences(engine) != []  # the newest migration changed something
        upgrade(engine)
        assert differences(engine) == []
    finally:
        engine.dispose()
