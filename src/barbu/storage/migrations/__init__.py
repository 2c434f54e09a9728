"""Alembic migrations of the server's database (run by :meth:`barbu.storage.Store.migrate`)."""
