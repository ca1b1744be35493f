"""analyses: each ended game's analysis, kept beside its record

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("document", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_analyses_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_analyses")),
    )


def downgrade() -> None:
    op.drop_table("analyses")
