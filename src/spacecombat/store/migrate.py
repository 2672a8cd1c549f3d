"""Bringing a database's schema to the newest revision, safely when processes race.

The Alembic configuration is built in code (no ``alembic.ini``); the scripts are the package's
``migrations/``. Two processes starting at once on one database do not both migrate: on
PostgreSQL the upgrade holds a transaction-scoped advisory lock, on SQLite a ``BEGIN
IMMEDIATE`` write lock, so the second waits, then finds the schema at head and does nothing.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, text

from spacecombat.store.models import VERSION_TABLE

#: where the scripts are, as a package resource (Alembic's ``package:dir`` form)
SCRIPT_LOCATION = "spacecombat.store:migrations"
#: the PostgreSQL advisory lock key held while migrating (any fixed 64-bit number)
ADVISORY_LOCK = 0x5C0_BA7_5709E

#: the execution option that makes a SQLite transaction start with ``BEGIN IMMEDIATE``
IMMEDIATE = "spacecombat_immediate"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration for the store's migrations, on ``connection`` if given."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str | None:
    """The newest revision of the scripts."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current(connection: Connection) -> str | None:
    """The revision the database on ``connection`` is at (None: no schema yet)."""
    context = MigrationContext.configure(connection, opts={"version_table": VERSION_TABLE})
    return context.get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database of ``engine`` to head, under a lock, in one transaction.

    A database already at head is only read (no lock taken beyond the first check).
    """
    newest = head()
    with engine.connect() as connection:
        at = current(connection)
        connection.rollback()
        if at == newest:
            return
    with engine.connect() as connection:
        connection.execution_options(**{IMMEDIATE: True})
        with connection.begin():
            if engine.dialect.name == "postgresql":
                connection.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK}
                )
            command.upgrade(alembic_config(connection), "head")
