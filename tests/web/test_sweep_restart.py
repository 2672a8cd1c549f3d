"""Issue 26: a sweep started over HTTP whose server is killed is not left ``running`` for ever:
the next server resumes it from its first point, and its table is the one an uninterrupted
run makes (ruling 25L-2; docs/sweeps.md, "Over HTTP"). Run against ``spacecombat serve``
itself, killed with SIGKILL, on SQLite and on PostgreSQL (a throwaway cluster)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from spacecombat.store import Store
from spacecombat.store.sweeps import MAX_RESUMES, claim_orphans, load_sweep, start_sweep
from spacecombat.sweeps.spec import load_spec
from spacecombat.web.sweeps import owner_alive, process_owner
from tests.store.postgres import PostgresServer, postgres_server
from tests.web.running import call, served

__all__ = ["postgres_server"]

#: 20 points of Monte Carlo odds (about 0.1 to 0.5 s each): two tasks of ten, seconds each
SPEC: dict[str, Any] = {
    "scenario": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": "2 dreadnought"},
        "defender": {"units": "1 destroyer"},
    },
    "axes": {"defender.units.cruiser": "1..10", "defender.technologies": [[], ["assault_cannon"]]},
    "method": "montecarlo",
    "trials": 20_000,
    "seed": 7,
}


def _url(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_schema()


def _finished(url: str, sweep_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 180
    while True:
        status, _, state = call(f"{url}/api/v1/sweeps/{sweep_id}")
        assert status == 200, state
        if state["state"] != "running":
            found: dict[str, Any] = state
            return found
        assert time.monotonic() < deadline, state
        time.sleep(0.2)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_sweep_whose_server_was_killed_is_resumed_by_the_next_server(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = _url(kind, tmp_path, request)
    with served(tmp_path, "--db", url) as first:
        status, _, started = call(f"{first.url}/api/v1/sweeps", {"spec": SPEC})
        assert status == 202, started
        sweep_id = started["id"]
        time.sleep(0.5)
        status, _, before = call(f"{first.url}/api/v1/sweeps/{sweep_id}")
        assert before["state"] == "running"
        assert before["done"] < 20
        first.kill()
    with Store(url) as store:  # as the killed server left it
        left = load_sweep(store, sweep_id)
    assert left is not None
    assert left.state == "running"
    with served(tmp_path, "--db", url) as second:
        status, _, now = call(f"{second.url}/api/v1/sweeps/{sweep_id}")
        assert status == 200
        assert now["state"] in ("running", "done")
        assert "resumed from its first point" in now["note"]  # taken over at the start
        resumed = _finished(second.url, sweep_id)
        assert (resumed["state"], resumed["done"], resumed["points"]) == ("done", 20, 20)
        status, _, table = call(f"{second.url}/api/v1/sweeps/{sweep_id}/table")
        assert status == 200
        # the same sweep, not interrupted: the same table, value for value
        status, _, again = call(f"{second.url}/api/v1/sweeps", {"spec": SPEC})
        assert status == 202, again
        assert _finished(second.url, again["id"])["state"] == "done"
        status, _, whole = call(f"{second.url}/api/v1/sweeps/{again['id']}/table")
    assert table["columns"] == whole["columns"]
    assert table["rows"] == whole["rows"]


@pytest.mark.slow
def test_a_sweep_whose_server_stopped_on_ctrl_c_is_released_and_resumed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    with served(tmp_path, "--db", url) as first:
        status, _, started = call(f"{first.url}/api/v1/sweeps", {"spec": SPEC})
        assert status == 202, started
        time.sleep(0.5)
    # one Ctrl-C (``served``'s end): the server stopped cleanly and released the sweep
    with Store(url) as store:
        left = load_sweep(store, started["id"])
    assert left is not None
    assert left.state == "running"
    with served(tmp_path, "--db", url) as second:
        resumed = _finished(second.url, started["id"])
    assert (resumed["state"], resumed["done"]) == ("done", 20)
    assert "resumed from its first point" in resumed["note"]


def test_a_sweep_of_a_live_server_is_not_taken_and_one_resumed_too_often_fails(
    tmp_path: Path,
) -> None:
    """Claiming (``store.sweeps.claim_orphans``): a sweep whose owner is this very process
    (alive, its heartbeat fresh) is left to it; a sweep whose owner's process is gone is taken,
    once, by one claimant; after ``MAX_RESUMES`` resumes it is failed, not resumed again."""
    spec = load_spec(SPEC)
    with Store(f"sqlite:///{tmp_path / 'store.db'}") as store:
        mine = process_owner()
        assert owner_alive(mine)
        live = start_sweep(store, spec, mine)
        assert claim_orphans(store, "other 1 1", 30, owner_alive, 5) == []
        gone = f"{mine.split()[0]} {mine.split()[1]} 0"  # this pid, but started at another time
        assert not owner_alive(gone)
        dead = start_sweep(store, spec, gone)
        taken = claim_orphans(store, "other 1 1", 30, owner_alive, 5)
        assert [c.id for c in taken] == [dead]
        assert claim_orphans(store, "third 1 1", 30, lambda _: True, 5) == []  # fresh, alive
        found = load_sweep(store, live)
        assert found is not None
        assert found.state == "running"
        for claimant in range(MAX_RESUMES):  # stale (a lease of 0 s): taken again each time
            assert claim_orphans(store, f"c{claimant} 1 1", -1, lambda _: True, 5)
        failed = load_sweep(store, dead)
        assert failed is not None
        assert failed.state == "failed"
        assert f"stopped {MAX_RESUMES + 1} times" in (failed.note or "")
