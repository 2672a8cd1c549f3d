"""Fixtures for the store's tests: every store test runs on SQLite and on a real PostgreSQL
server (a throwaway cluster started once per session, see :mod:`tests.store.postgres`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from spacecombat.store import Store
from tests.store.postgres import PostgresServer, postgres_server

__all__ = ["postgres_server"]

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The database kind under test."""
    name: str = request.param
    return name


@pytest.fixture
def db_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A URL to a new, empty database of the backend under test (PostgreSQL's without a
    driver, as an operator would write it; a schema of its own on the session's server)."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_schema()


@pytest.fixture
def open_store(db_url: str) -> Iterator[Callable[[], Store]]:
    """Opens stores on the test's database; all are closed after the test."""
    opened: list[Store] = []

    def open_one() -> Store:
        store = Store(db_url)
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: Callable[[], Store]) -> Store:
    """A store on a new database of the backend under test."""
    return open_store()
