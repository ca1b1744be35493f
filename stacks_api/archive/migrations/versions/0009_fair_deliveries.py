"""fair deliveries: how many deliveries a webhook's full backlog dropped, and an
index to find a subscription's pending pushes

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("webhooks") as webhooks:
        webhooks.add_column(
            sa.Column("dropped", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
    op.create_index("ix_push_deliveries_subscription_id_state", "push_deliveries",
                    ["subscription_id", "state"], unique=False)  # fmt: skip


def downgrade() -> None:
    op.drop_index("ix_push_deliveries_subscription_id_state", table_name="push_deliveries")
    with op.batch_alter_table("webhooks") as webhooks:
        webhooks.drop_column("dropped")
