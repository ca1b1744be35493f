"""challenges: whether an account takes challenges from anyone

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as players:
        column: sa.Column[bool] = sa.Column(
            "accepts_challenges", sa.Boolean(), nullable=False, server_default=sa.true()
        )
        players.add_column(column)


def downgrade() -> None:
    with op.batch_alter_table("players") as players:
        players.drop_column("accepts_challenges")
