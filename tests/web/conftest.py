"""The API's tests run against the real app and a real store (SQLite in the test's temporary
folder), through FastAPI's test client; the app's start-up forks its work pool."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spacecombat.store import Store
from spacecombat.web import create_app


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(f"sqlite:///{tmp_path / 'store.db'}") as opened:
        yield opened


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    """A client of the app (two workers), started and stopped with the test."""
    with TestClient(create_app(store, workers=2)) as started:
        yield started
