"""Sweeps in the store (``spacecombat sweep --db``) and over HTTP: start one, follow its
progress, read its table (docs/sweeps.md, web/sweeps.py)."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from fastapi.testclient import TestClient

from spacecombat.store import Store
from spacecombat.store.sweeps import load_sweep
from spacecombat.web.sweeps import MAX_API_POINTS
from tests.sweep.command import spacecombat

SPEC: dict[str, Any] = {
    "scenario": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": "2 dreadnought"},
        "defender": {"units": "1 destroyer"},
    },
    "axes": {"defender.units.cruiser": "1..3", "defender.technologies": [[], ["assault_cannon"]]},
}


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and math.isnan(a):
        return b is None
    return a == b


def test_command_saves_the_sweep_and_its_table(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    out = tmp_path / "t.parquet"
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    status, stdout, err = spacecombat(
        "sweep", str(spec), "--out", str(out), "--workers", "1", "--db", url, "--csv"
    )
    assert status == 0, err
    assert "6 points (0 kept from before)" in stdout
    sweep_id = err.split("saved in the store as sweep ")[1].split()[0]
    table = pd.read_parquet(out)
    assert pd.read_csv(out.with_suffix(".csv"))["attacker_win"].tolist() == pytest.approx(
        table["attacker_win"].tolist(), abs=1e-15
    )
    with Store(url) as store:
        found = load_sweep(store, sweep_id)
    assert found is not None
    assert found.state == "done"
    assert found.done == found.points == 6
    assert found.columns == list(table.columns)
    assert found.rows is not None
    for row, (_, expected) in zip(found.rows, table.iterrows(), strict=True):
        assert all(_same(b, a) for a, b in zip(row, expected.tolist(), strict=True))


def test_api_starts_a_sweep_reports_progress_and_returns_its_table(
    client: TestClient, tmp_path: Path
) -> None:
    started = client.post("/api/v1/sweeps", json={"spec": SPEC})
    assert started.status_code == 202, started.text
    sweep_id = started.json()["id"]
    assert started.json()["points"] == 6
    deadline = time.monotonic() + 120
    while True:
        state = client.get(f"/api/v1/sweeps/{sweep_id}").json()
        assert 0 <= state["done"] <= state["points"] == 6
        if state["state"] != "running":
            break
        early = client.get(f"/api/v1/sweeps/{sweep_id}/table")
        assert early.status_code in (409, 200)
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert state["state"] == "done", state
    table = client.get(f"/api/v1/sweeps/{sweep_id}/table").json()
    # the command line's table, value for value
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    out = tmp_path / "t.parquet"
    status, _, err = spacecombat("sweep", str(spec), "--out", str(out), "--workers", "1")
    assert status == 0, err
    frame = pd.read_parquet(out)
    assert table["columns"] == list(frame.columns)
    for row, (_, expected) in zip(table["rows"], frame.iterrows(), strict=True):
        assert all(_same(b, a) for a, b in zip(row, expected.tolist(), strict=True))


def test_api_refuses_bad_and_too_large_sweeps(client: TestClient) -> None:
    bad = client.post("/api/v1/sweeps", json={"spec": {**SPEC, "axes": {"defender.units": 3}}})
    assert bad.status_code == 422
    assert bad.json()["error"]["field"] == "axes.defender.units"
    large = {**SPEC, "axes": {"defender.units.cruiser": "0..40", "attacker.units.cruiser": "0..40"}}
    refused = client.post("/api/v1/sweeps", json={"spec": large})
    assert refused.status_code == 422
    assert f"limit of {MAX_API_POINTS:,} a sweep started over HTTP" in refused.text
    assert client.get("/api/v1/sweeps/aaaaaaaaaaaaaaaa").status_code == 404
    assert client.get("/api/v1/sweeps/nonsense/table").status_code == 404


def test_the_sweeps_are_documented(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {
        "/api/v1/sweeps",
        "/api/v1/sweeps/{sweep_id}",
        "/api/v1/sweeps/{sweep_id}/table",
    } <= set(paths)
    body = paths["/api/v1/sweeps"]["post"]["requestBody"]
    assert "spec" in body["content"]["application/json"]["schema"]["properties"]
