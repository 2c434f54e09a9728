"""The club: accounts and their sessions, rated tables, the seats of accounts, ratings and their history.

Revision ID: v0005
Revises: v0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "v0005"
down_revision: str | None = "v0004"
branch_labels: str | None = None
depends_on: str | None = None

_TABLE = "tables.id"


def upgrade() -> None:
    """Create the club's seven tables (:mod:`barbu.storage.club`)."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password", sa.String(200), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("prefs", sa.Text, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "club_tables",
        sa.Column("table_id", sa.String(32), sa.ForeignKey(_TABLE, ondelete="CASCADE"), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("quick", sa.Boolean, nullable=False),
    )
    op.create_table(
        "table_accounts",
        sa.Column("table_id", sa.String(32), sa.ForeignKey(_TABLE, ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("key", sa.String(64), nullable=True),
    )
    op.create_index("ix_table_accounts_account_id", "table_accounts", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(48), primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(48), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
    )
    op.create_table(
        "sheet_accounts",
        sa.Column("sheet_id", sa.String(48), sa.ForeignKey("sheets.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.String(24), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("key", sa.String(96), nullable=False),
    )
    op.create_index("ix_sheet_accounts_account_id", "sheet_accounts", ["account_id"])
    op.create_index("ix_rating_history_at", "rating_history", ["at"])
    op.create_index("ix_rating_history_player", "rating_history", ["player", "variant"])


def downgrade() -> None:
    """Drop the club's tables."""
    for name in (
        "sheet_accounts",
        "rating_history",
        "ratings",
        "table_accounts",
        "club_tables",
        "sessions",
        "accounts",
    ):
        op.drop_table(name)
