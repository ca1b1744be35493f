"""days and pushes: the vacation bank and the days taken from it, Web Push
subscriptions and their queue, notification preferences, the server's own keys

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as players:
        players.add_column(
            sa.Column("vacation_days", sa.Double(), nullable=False, server_default="10")
        )
        players.add_column(sa.Column("vacation_at", sa.Double(), nullable=True))
    with op.batch_alter_table("tournaments") as tournaments:
        tournaments.add_column(sa.Column("days", sa.SmallInteger(), nullable=True))
    op.create_table(
        "vacation_days",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("deadline", sa.Double(), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=True),
        sa.Column("days_left", sa.Double(), nullable=True),
        sa.Column("at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_vacation_days_player_id_players")
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", "deadline", name=op.f("pk_vacation_days")),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=False),
        sa.Column("endpoint", sa.String(length=1000), nullable=False),
        sa.Column("p256dh", sa.String(length=120), nullable=False),
        sa.Column("auth", sa.String(length=40), nullable=False),
        sa.Column("events", sa.String(length=300), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("paused_until", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_push_subscriptions_player_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
    )
    op.create_index(
        op.f("ix_push_subscriptions_player_id"), "push_subscriptions", ["player_id"], unique=False
    )
    op.create_table(
        "push_deliveries",
        sa.Column("id", sa.String(length=48), nullable=False),
        sa.Column("subscription_id", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.String(length=24), nullable=False),
        sa.Column("event", sa.String(length=32), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("topic", sa.String(length=32), nullable=False),
        sa.Column("urgency", sa.String(length=8), nullable=False),
        sa.Column("ttl", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("next_at", sa.Double(), nullable=False),
        sa.Column("lease_until", sa.Double(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["push_subscriptions.id"],
            name=op.f("fk_push_deliveries_subscription_id_push_subscriptions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_deliveries")),
    )
    op.create_index(
        "ix_push_deliveries_state_next_at", "push_deliveries", ["state", "next_at"], unique=False
    )
    op.create_table(
        "notification_preferences",
        sa.Column("player_id", sa.String(length=24), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_notification_preferences_player_id_players"),
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_notification_preferences")),
    )
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_keys")),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
    op.drop_table("notification_preferences")
    op.drop_index("ix_push_deliveries_state_next_at", table_name="push_deliveries")
    op.drop_table("push_deliveries")
    op.drop_index(op.f("ix_push_subscriptions_player_id"), table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("vacation_days")
    with op.batch_alter_table("tournaments") as tournaments:
        tournaments.drop_column("days")
    with op.batch_alter_table("players") as players:
        players.drop_column("vacation_at")
        players.drop_column("vacation_days")
