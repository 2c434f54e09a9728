"""Owners of score sheets: the links (owner, editor, viewer) of each sheet.

Sheets stored before this revision get no link: the web app does not show them until
``barbu score link`` (which reads the database directly) prints an owner link for one.

Revision ID: v0004
Revises: v0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0004"
down_revision: str | None = "v0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the ``sheet_links`` table."""
    op.create_table(
        "sheet_links",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("id", sa.String(16), nullable=False, unique=True),
        sa.Column("sheet_id", sa.String(48), sa.ForeignKey("sheets.id", ondelete="CASCADE"), nullable=False),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_sheet_links_sheet_id", "sheet_links", ["sheet_id"])


def downgrade() -> None:
    """Drop the sheets' links."""
    op.drop_index("ix_sheet_links_sheet_id", "sheet_links")
    op.drop_table("sheet_links")
