"""Alembic migrations of the database of tables and score sheets (run by :meth:`barbu.storage.Store.migrate`)."""
