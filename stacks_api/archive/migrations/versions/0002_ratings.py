"""ratings: each subject's rating per variant, and every rated game's changes

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("subject", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("subject", "variant", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_variant_mu", "ratings", ["variant", "mu"])
    op.create_table(
        "rating_changes",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("subject", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("rank", sa.SmallInteger(), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("mu_after", sa.Double(), nullable=False),
        sa.Column("sigma_after", sa.Double(), nullable=False),
        sa.Column("ended_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rating_changes_game_id_games")
        ),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_rating_changes")),
    )
    op.create_index(
        "ix_rating_changes_game_id_subject", "rating_changes", ["game_id", "subject"], unique=True
    )
    op.create_index(
        "ix_rating_changes_subject_variant", "rating_changes", ["subject", "variant", "seq"]
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
