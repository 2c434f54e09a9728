"""Seat claims: which browser holds each person's seat, the unsent invitations, each table's creator.

Revision ID: v0003
Revises: v0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0003"
down_revision: str | None = "v0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``seat_claims`` and ``table_creators``."""
    op.create_table(
        "seat_claims",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("invitation", sa.String(64), nullable=True),
        sa.Column("holder", sa.String(64), nullable=True),
    )
    op.create_table(
        "table_creators",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("browser", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    """Drop the claims and the creators."""
    op.drop_table("table_creators")
    op.drop_table("seat_claims")
