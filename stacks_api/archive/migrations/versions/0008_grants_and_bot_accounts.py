"""grants and bot accounts: the access other apps hold (tokens with scopes), the
OAuth flow's authorization codes, and the flag of a bot account

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as players:
        players.add_column(
            sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "grants",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("app", sa.String(length=200), nullable=False),
        sa.Column("scopes", sa.String(length=100), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=True),
        sa.Column("last_used_at", sa.Double(), nullable=True),
        sa.Column("revoked_at", sa.Double(), nullable=True),
        sa.Column("code_hash", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_grants_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_grants")),
    )
    op.create_index(op.f("ix_grants_player_id"), "grants", ["player_id"], unique=False)
    op.create_index(op.f("ix_grants_code_hash"), "grants", ["code_hash"], unique=False)
    op.create_table(
        "authorization_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=False),
        sa.Column("client_id", sa.String(length=200), nullable=False),
        sa.Column("redirect_uri", sa.String(length=1000), nullable=False),
        sa.Column("scopes", sa.String(length=100), nullable=False),
        sa.Column("challenge", sa.String(length=128), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
        sa.Column("used_at", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_authorization_codes_player_id_players")
        ),
        sa.PrimaryKeyConstraint("code_hash", name=op.f("pk_authorization_codes")),
    )


def downgrade() -> None:
    op.drop_table("authorization_codes")
    op.drop_index(op.f("ix_grants_code_hash"), table_name="grants")
    op.drop_index(op.f("ix_grants_player_id"), table_name="grants")
    op.drop_table("grants")
    with op.batch_alter_table("players") as players:
        players.drop_column("bot")
