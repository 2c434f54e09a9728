"""Alembic's environment: runs the migrations on the connection the store hands over.

There is no ``alembic.ini``: :meth:`barbu.storage.Store.migrate` builds the
configuration in code and passes its open connection in ``config.attributes``.
"""

from __future__ import annotations

from alembic import context

from barbu.storage import metadata


def run_migrations() -> None:
    """Run the pending migrations online, on the store's connection."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # only inside an Alembic command, not when a tool imports this file
    run_migrations()
