"""public: closed and deleted accounts, reports, webhooks and their deliveries

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as players:
        players.add_column(sa.Column("closed_at", sa.Double(), nullable=True))
        players.add_column(sa.Column("closed_reason", sa.String(length=200), nullable=True))
        players.add_column(sa.Column("deleted_at", sa.Double(), nullable=True))
        players.add_column(sa.Column("renamed_at", sa.Double(), nullable=True))
    op.create_table(
        "reports",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("reporter_id", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("resolved_at", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["reporter_id"], ["players.id"], name=op.f("fk_reports_reporter_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_reports_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    op.create_index(op.f("ix_reports_player_id"), "reports", ["player_id"])
    op.create_index("ix_reports_reporter_id_created_at", "reports", ["reporter_id", "created_at"])
    op.create_table(
        "webhooks",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("events", sa.String(length=400), nullable=False),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("failing_since", sa.Double(), nullable=True),
        sa.Column("disabled_at", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_webhooks_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhooks")),
    )
    op.create_index(op.f("ix_webhooks_player_id"), "webhooks", ["player_id"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("webhook_id", sa.String(length=24), nullable=False),
        sa.Column("event", sa.String(length=32), nullable=False),
        sa.Column("payload", sa.String(length=8000), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("next_at", sa.Double(), nullable=False),
        sa.Column("lease_until", sa.Double(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["webhook_id"], ["webhooks.id"], name=op.f("fk_webhook_deliveries_webhook_id_webhooks")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_deliveries")),
    )
    op.create_index(op.f("ix_webhook_deliveries_webhook_id"), "webhook_deliveries",
                    ["webhook_id"])  # fmt: skip
    op.create_index("ix_webhook_deliveries_state_next_at", "webhook_deliveries",
                    ["state", "next_at"])  # fmt: skip
    op.create_table(
        "webhook_attempts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("delivery_id", sa.String(length=40), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("status", sa.SmallInteger(), nullable=True),
        sa.Column("error", sa.String(length=200), nullable=True),
        sa.Column("duration_ms", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["delivery_id"],
            ["webhook_deliveries.id"],
            name=op.f("fk_webhook_attempts_delivery_id_webhook_deliveries"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_attempts")),
    )
    op.create_index(op.f("ix_webhook_attempts_delivery_id"), "webhook_attempts",
                    ["delivery_id"])  # fmt: skip


def downgrade() -> None:
    op.drop_table("webhook_attempts")
    op.drop_table("webhook_deliveries")
    op.drop_table("webhooks")
    op.drop_table("reports")
    with op.batch_alter_table("players") as players:
        players.drop_column("renamed_at")
        players.drop_column("deleted_at")
        players.drop_column("closed_reason")
        players.drop_column("closed_at")
