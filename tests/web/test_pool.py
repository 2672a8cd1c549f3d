"""The work pool is bounded: when every place in it is taken, the API answers 503 with
``Retry-After`` at once (never a hang), and answers again once a place is free. A place is held
here by a call that waits for a file the test creates: no timing is measured."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from spacecombat.store import Store
from spacecombat.web import create_app
from spacecombat.web.work import WorkPool

SCENARIO: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": "2 dreadnought"},
    "defender": {"units": "3 cruiser"},
}

#: the longest a held place is held, should the test fail before it lets it go
HOLD = 120.0


def hold(released: str) -> str:
    """Run in a worker: wait until the file ``released`` exists."""
    deadline = time.monotonic() + HOLD
    while not Path(released).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return "released"


def test_a_full_pool_answers_503_with_retry_after(store: Store, tmp_path: Path) -> None:
    released = tmp_path / "released"
    app = create_app(store, workers=1, capacity=1)
    with TestClient(app) as client:
        cached = client.post("/api/v1/odds", json={"scenario": SCENARIO}).json()
        pool: WorkPool = app.state.pool
        held = pool.submit(hold, str(released))
        try:
            for path, body in [
                ("/api/v1/odds", {"scenario": SCENARIO, "rounds": 2}),
                ("/api/v1/resolve", {"scenario": SCENARIO, "seed": 1}),
                ("/api/v1/replay", {"log": [{"event": "battle_started"}]}),
            ]:
                answer = client.post(path, json=body)
                assert answer.status_code == 503, path
                assert int(answer.headers["retry-after"]) >= 1
                assert "busy" in answer.json()["error"]["message"]
            # what the store holds needs no worker
            again = client.post("/api/v1/odds", json={"scenario": SCENARIO})
            assert again.status_code == 200
            assert again.json()["cached"] is True
            assert again.json()["result_id"] == cached["result_id"]
        finally:
            released.touch()
        assert held.result(timeout=HOLD) == "released"
        answer = client.post("/api/v1/odds", json={"scenario": SCENARIO, "rounds": 2})
        assert answer.status_code == 200
        assert pool.in_flight == 0


def test_the_pools_workers_start_no_pool_of_their_own() -> None:
    """Monte Carlo asks ``may_start`` before it starts workers: in the pool's workers, no."""
    from spacecombat.analysis.workers import may_start

    pool = WorkPool(workers=1)
    try:
        pool.start()
        assert pool.submit(may_start).result(timeout=HOLD) is False
    finally:
        pool.close()


def test_a_pool_whose_worker_died_is_replaced(store: Store) -> None:
    import os

    """A worker killed (for memory, say) breaks its executor: the next call gets a new one,
    the call it broke is answered 503 (issue 25), and no answer shows the server's insides."""
    app = create_app(store, workers=1)
    with TestClient(app, raise_server_exceptions=False) as client:
        pool: WorkPool = app.state.pool
        worker = pool.submit(os.getpid).result(timeout=HOLD)
        os.kill(worker, 9)
        answers = [
            client.post("/api/v1/resolve", json={"scenario": SCENARIO, "seed": 3}) for _ in range(2)
        ]
        assert answers[-1].status_code == 200
        # the call the dead worker held: 503 with Retry-After (ask again), never a 500
        assert all(a.status_code in (200, 503) for a in answers)
        assert all("retry-after" in a.headers for a in answers if a.status_code == 503)
        assert all("Traceback" not in a.text for a in answers)


def engine_modules_missing() -> list[str]:
    """Run in a worker: the engines' modules not imported yet (``import_the_engines``)."""
    import sys

    import spacecombat.analysis
    import spacecombat.rulesets

    wanted = ["numpy", "spacecombat.analysis.exact", "spacecombat.analysis.product"]
    import pkgutil

    for package in (spacecombat.analysis, spacecombat.rulesets):
        wanted += [m.name for m in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")]
    return [name for name in wanted if name not in sys.modules]


def test_a_worker_imports_the_engines_before_its_first_call() -> None:
    """A call stopped by the timer in the middle of a module's first import would leave the
    module half made in the worker for good (numpy without ``matrix``, seen when the page
    abandoned a request at each keystroke): a worker imports them all before any call."""
    pool = WorkPool(workers=1)
    try:
        pool.start()
        assert pool.submit(engine_modules_missing).result(timeout=HOLD) == []
    finally:
        pool.close()
