"""Alembic migrations of the server's database (run by :meth:`barbu.server.store.Store.migrate`)."""
