"""Score sheets stored as logs of changes: sheets and sheet_changes.

Revision ID: v0002
Revises: v0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0002"
down_revision: str | None = "v0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the two tables of the score-sheet store."""
    op.create_table(
        "sheets",
        sa.Column("id", sa.String(48), primary_key=True),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("base", sa.Text, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("complete", sa.Boolean, nullable=False),
    )
    op.create_index("ix_sheets_updated", "sheets", ["updated"])
    op.create_table(
        "sheet_changes",
        sa.Column("sheet_id", sa.String(48), sa.ForeignKey("sheets.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("change", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop the score-sheet store."""
    op.drop_table("sheet_changes")
    op.drop_index("ix_sheets_updated", "sheets")
    op.drop_table("sheets")
