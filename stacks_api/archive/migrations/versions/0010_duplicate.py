"""duplicate events: a tournament's secret round seeds, an entry's entropy and a
duplicate table's comparison; the system's name may be longer

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as tournaments:
        tournaments.alter_column("system", existing_type=sa.String(length=8),
                                 type_=sa.String(length=10))  # fmt: skip
        tournaments.add_column(sa.Column("seeds", sa.Text(), nullable=True))
    with op.batch_alter_table("tournament_entries") as entries:
        entries.add_column(sa.Column("entropy", sa.String(length=64), nullable=True))
    with op.batch_alter_table("tournament_tables") as tables:
        tables.add_column(sa.Column("detail", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_tables") as tables:
        tables.drop_column("detail")
    with op.batch_alter_table("tournament_entries") as entries:
        entries.drop_column("entropy")
    with op.batch_alter_table("tournaments") as tournaments:
        tournaments.drop_column("seeds")
        tournaments.alter_column("system", existing_type=sa.String(length=10),
                                 type_=sa.String(length=8))  # fmt: skip
