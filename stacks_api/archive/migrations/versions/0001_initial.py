"""players, their keys, ended games and their seats

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("ended_at", sa.Double(), nullable=False),
        sa.Column("document", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_ended_at"), ["ended_at"], unique=False)

    op.create_table(
        "players",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("bot", sa.String(length=16), nullable=True),
        sa.Column("score", sa.Double(), nullable=True),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("ended_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_seats_game_id_games")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_game_seats_player_id_players")
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_seats")),
    )
    with op.batch_alter_table("game_seats", schema=None) as batch_op:
        batch_op.create_index(
            "ix_game_seats_player_history", ["player_id", "ended_at", "game_id"], unique=False
        )
        batch_op.create_index(
            "ix_game_seats_player_variant_history",
            ["player_id", "variant", "ended_at", "game_id"],
            unique=False,
        )

    op.create_table(
        "player_keys",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=False),
        sa.Column("label", sa.String(length=40), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("revoked_at", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_keys_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_keys")),
    )
    with op.batch_alter_table("player_keys", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_keys_player_id"), ["player_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("player_keys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_keys_player_id"))

    op.drop_table("player_keys")
    with op.batch_alter_table("game_seats", schema=None) as batch_op:
        batch_op.drop_index("ix_game_seats_player_variant_history")
        batch_op.drop_index("ix_game_seats_player_history")

    op.drop_table("game_seats")
    op.drop_table("players")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_ended_at"))

    op.drop_table("games")
