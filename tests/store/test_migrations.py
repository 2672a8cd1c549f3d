"""The packaged migrations: they create the schema on first start, a second start changes
nothing, and they match the models (``alembic check``)."""

from __future__ import annotations

from collections.abc import Callable

from alembic import command
from sqlalchemy import inspect

from spacecombat.store import Store
from spacecombat.store.migrate import alembic_config, current, head
from spacecombat.store.models import VERSION_TABLE, Base
from tests.store.helpers import WRITES, engine_for, statements, tables

TABLES = {"scenarios", "results", "battle_logs", "sweeps"}


def test_first_start_creates_the_schema(db_url: str, open_store: Callable[[], Store]) -> None:
    assert not TABLES & tables(db_url)
    open_store()
    assert tables(db_url) == {*TABLES, VERSION_TABLE}
    with engine_for(db_url) as engine, engine.connect() as connection:
        assert current(connection) == head() == "0003_sweep_owner"


def test_a_second_start_is_a_no_op(db_url: str, open_store: Callable[[], Store]) -> None:
    first = open_store()
    scenario_id = first.save_scenario({"kept": True})
    with statements() as sent:
        second = open_store()
    assert [s for s in sent if WRITES.match(s)] == []
    assert second.scenario(scenario_id) == {"kept": True}


def test_the_models_match_the_migrations(db_url: str, open_store: Callable[[], Store]) -> None:
    """``alembic check``: autogenerate finds nothing to add, drop or change."""
    open_store()
    with engine_for(db_url) as engine, engine.connect() as connection:
        command.check(alembic_config(connection))
        inspector = inspect(connection)
        for table in Base.metadata.sorted_tables:
            columns = {column["name"] for column in inspector.get_columns(table.name)}
            assert columns == set(table.columns.keys())


def test_downgrade_and_upgrade_again(db_url: str, open_store: Callable[[], Store]) -> None:
    open_store().close()
    with engine_for(db_url) as engine, engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    assert not TABLES & tables(db_url)
    store = open_store()
    assert tables(db_url) >= TABLES
    assert store.scenario(store.save_scenario({"again": 1})) == {"again": 1}
