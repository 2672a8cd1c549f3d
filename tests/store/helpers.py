"""Looking into a store's database from a test, around the store."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Engine, create_engine, event, func, inspect, select

from spacecombat.store import resolve_url
from spacecombat.store.models import Base

WRITES = re.compile(r"\s*(CREATE|ALTER|DROP|INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


@contextlib.contextmanager
def engine_for(url: str) -> Iterator[Engine]:
    """A plain engine on the store's database (closed after the block)."""
    engine = create_engine(resolve_url(url))
    try:
        yield engine
    finally:
        engine.dispose()


def count(url: str, model: type[Base]) -> int:
    """How many rows the table of ``model`` has."""
    with engine_for(url) as engine, engine.connect() as connection:
        rows = connection.execute(select(func.count()).select_from(model.__table__)).scalar_one()
        return int(rows)


def tables(url: str) -> set[str]:
    """The database's table names."""
    with engine_for(url) as engine:
        return set(inspect(engine).get_table_names())


@contextlib.contextmanager
def statements() -> Iterator[list[str]]:
    """Every SQL statement any engine sends during the block."""
    seen: list[str] = []

    def record(connection: Any, cursor: Any, statement: str, *args: Any, **kwargs: Any) -> None:
        seen.append(statement)

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(Engine, "before_cursor_execute", record)
