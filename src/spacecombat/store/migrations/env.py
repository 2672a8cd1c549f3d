"""Alembic's environment for the store.

The store runs the migrations itself (:func:`spacecombat.store.migrate.upgrade`), on a
connection it has already opened and locked, passed in ``config.attributes["connection"]``.
Without one (the ``alembic`` command with a ``sqlalchemy.url``), a connection is opened here.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine, pool

from spacecombat.store.models import VERSION_TABLE, Base


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        version_table=VERSION_TABLE,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )


def run_offline() -> None:
    """Write the migrations' SQL instead of running it (``alembic upgrade --sql``)."""
    context.configure(
        url=context.config.get_main_option("sqlalchemy.url"),
        target_metadata=Base.metadata,
        version_table=VERSION_TABLE,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Run the migrations on the store's connection, or on a new one."""
    given = context.config.attributes.get("connection")
    if isinstance(given, Connection):
        _configure(given)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection and no sqlalchemy.url to migrate")
    engine = create_engine(url, poolclass=pool.NullPool)
    with engine.connect() as connection:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
