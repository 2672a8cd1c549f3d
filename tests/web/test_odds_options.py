"""Issue 24: the HTTP API takes the command line's ``fractions``, ``budget`` and ``precision``
(tests/odds/test_cli_odds_options.py), a bad value refused with 422 naming the field."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from spacecombat.core.limits import MAX_CHANCE_STATES
from tests.odds.test_cli_odds_options import CRUISERS
from tests.odds.test_fallback import RETREATING


def test_the_api_takes_fractions_budget_and_precision(client: TestClient) -> None:
    exact = client.post("/api/v1/odds", json={"scenario": CRUISERS, "fractions": True})
    assert exact.json()["report"]["fractions"]["attacker_win"] == "3/8"
    fallen = client.post(
        "/api/v1/odds", json={"scenario": RETREATING, "budget": 2, "trials": 300}
    ).json()["report"]
    assert fallen["method"] == "montecarlo"
    sampled = client.post(
        "/api/v1/odds",
        json={"scenario": CRUISERS, "method": "montecarlo", "precision": 0.02, "seed": 1},
    ).json()["report"]
    assert sampled["precision"]["target"] == 0.02
    assert sampled["precision"]["reached"] is True


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"precision": 0.00001}, "precision"),
        ({"precision": 0.3}, "precision"),
        ({"precision": "0.01"}, "precision"),
        ({"budget": 0}, "budget"),
        ({"budget": MAX_CHANCE_STATES + 1}, "budget"),
        ({"fractions": "yes"}, "fractions"),
    ],
)
def test_the_api_refuses_a_bad_value_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    answer = client.post("/api/v1/odds", json={"scenario": CRUISERS, **body})
    assert answer.status_code == 422
    assert answer.json()["error"]["field"] == field
