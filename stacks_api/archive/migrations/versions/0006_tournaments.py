"""tournaments: swiss and arena events, their entries and their rounds' tables

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("creator", sa.String(length=24), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("system", sa.String(length=8), nullable=False),
        sa.Column("rounds", sa.SmallInteger(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("turn_seconds", sa.Double(), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("round", sa.SmallInteger(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("starts_at", sa.Double(), nullable=False),
        sa.Column("ended_at", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["creator"], ["players.id"], name=op.f("fk_tournaments_creator_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index(
        "ix_tournaments_status_starts_at", "tournaments", ["status", "starts_at"], unique=False
    )
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(length=24), nullable=False),
        sa.Column("entry", sa.String(length=40), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=True),
        sa.Column("bot", sa.String(length=16), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("joined_at", sa.Double(), nullable=False),
        sa.Column("withdrawn_at", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_tournament_entries_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entries_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "entry", name=op.f("pk_tournament_entries")),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(length=24), nullable=False),
        sa.Column("round", sa.SmallInteger(), nullable=False),
        sa.Column("board", sa.SmallInteger(), nullable=False),
        sa.Column("seats", sa.String(length=400), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("server_seed", sa.String(length=64), nullable=True),
        sa.Column("points", sa.String(length=100), nullable=True),
        sa.Column("made_at", sa.Double(), nullable=False),
        sa.Column("ended_at", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_tables_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint(
            "tournament_id", "round", "board", name=op.f("pk_tournament_tables")
        ),
        sa.UniqueConstraint("game_id", name=op.f("uq_tournament_tables_game_id")),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status_starts_at", table_name="tournaments")
    op.drop_table("tournaments")
