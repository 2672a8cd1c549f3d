"""The store's Alembic migrations (run by :func:`spacecombat.store.migrate.upgrade`)."""
