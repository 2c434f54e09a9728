"""Tables stored as action logs: tables, seats and actions.

Revision ID: v0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the three tables of the action-log store."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("first_declarer", sa.Integer, nullable=False),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_tables_creator", "tables", ["creator"])
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot_level", sa.String(32), nullable=True),
        sa.Column("credential_hash", sa.String(64), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("joined", sa.Boolean, nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("action_id", sa.String(64), nullable=True),
        sa.Column("actor", sa.String(8), nullable=False),
    )


def downgrade() -> None:
    """Drop the action-log store."""
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_tables_status", "tables")
    op.drop_index("ix_tables_creator", "tables")
    op.drop_table("tables")
