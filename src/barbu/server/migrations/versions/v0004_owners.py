"""Owners: the hash of a table's owner key, and the links (owner, editor, viewer) of each score sheet.

Sheets stored before this revision get no link: the web app does not show them until
``barbu score link`` (which reads the database directly) prints an owner link for one.
Tables stored before it have no owner key, so nobody may delete them from the web.

Revision ID: v0004
Revises: v0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0004"
down_revision: str | None = "v0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``tables.owner_hash`` and the ``sheet_links`` table."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner_hash", sa.String(64), nullable=True))
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
    """Drop the sheets' links and the tables' owner keys."""
    op.drop_index("ix_sheet_links_sheet_id", "sheet_links")
    op.drop_table("sheet_links")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("owner_hash")
