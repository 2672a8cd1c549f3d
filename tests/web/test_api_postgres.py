"""The API on a real PostgreSQL server (a throwaway cluster, ``tests/store/postgres.py``), as
``spacecombat serve --db postgresql://...`` runs it: a scenario saved and shared, odds answered
then answered again from the store, a result by its id, a battle resolved, logged and replayed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacecombat.store import Store
from spacecombat.web import create_app
from tests.store.postgres import PostgresServer, postgres_server

__all__ = ["postgres_server"]

SMALL: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": "2 dreadnought"},
    "defender": {"units": "3 cruiser"},
}


@pytest.fixture
def pg_client(postgres_server: PostgresServer) -> Iterator[tuple[TestClient, Store]]:
    with (
        Store(postgres_server.create_schema()) as store,
        TestClient(create_app(store, workers=2)) as client,
    ):
        yield client, store


def test_the_api_keeps_scenarios_results_and_logs_in_postgresql(
    pg_client: tuple[TestClient, Store],
) -> None:
    client, store = pg_client
    saved = client.post("/api/v1/scenarios", json={"scenario": SMALL}).json()
    assert client.get(f"/api/v1/scenarios/{saved['id']}").json() == saved
    first = client.post("/api/v1/odds", json={"scenario": SMALL}).json()
    second = client.post("/api/v1/odds", json={"scenario": SMALL}).json()
    assert (first["cached"], second["cached"]) == (False, True)
    assert first["scenario_id"] == saved["id"]
    assert second["report"] == first["report"]
    stored = client.get(f"/api/v1/results/{first['result_id']}").json()
    assert stored["report"] == first["report"]
    played = client.post("/api/v1/resolve", json={"scenario": SMALL, "seed": 7}).json()
    log = store.log(played["log_id"])
    assert log is not None
    assert log.seed == 7
    assert log.events == played["events"]
    verdict = client.post("/api/v1/replay", json={"log": played["events"]}).json()
    assert verdict["reproduces"] is True
