"""Processes and threads using one database at once, on SQLite and PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable

import pytest

from spacecombat.store import Store, StoredResult
from spacecombat.store.migrate import head
from spacecombat.store.models import ResultRow, ScenarioRow
from tests.store.helpers import count, engine_for, tables

START_TOGETHER = """
import sys
from spacecombat.store import Store

print("ready", flush=True)
sys.stdin.readline()  # every process opens the store at the same moment, when told to
with Store(sys.argv[1]) as store:
    scenario_id = store.save_scenario({"race": True})
    result = store.save_result(scenario_id, "exact", {}, "0.1.0", {"from": sys.argv[2]})
    print(scenario_id, result.id)
"""
PROCESSES = 8


@pytest.mark.slow
def test_processes_starting_at_once_on_a_new_database(db_url: str) -> None:
    """Each migrates the empty database only if no other did: all start, one schema."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", START_TOGETHER, db_url, str(n)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(PROCESSES)
    ]
    try:
        for process in processes:  # all imported, waiting
            assert process.stdout is not None
            assert process.stdout.readline() == "ready\n"
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        outputs = [process.communicate(timeout=120) for process in processes]
    finally:
        for process in processes:
            process.kill()
            process.wait()
    for process, (_, err) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, err
    assert len({out for out, _ in outputs}) == 1  # one scenario id, one result id
    assert count(db_url, ScenarioRow) == count(db_url, ResultRow) == 1
    assert {"scenarios", "results", "battle_logs"} <= tables(db_url)
    with engine_for(db_url) as engine, engine.connect() as connection:
        versions = connection.exec_driver_sql(
            "SELECT version_num FROM spacecombat_alembic_version"
        ).all()
    assert [v for (v,) in versions] == [head()]


def test_threads_racing_to_save_one_result(open_store: Callable[[], Store], db_url: str) -> None:
    """Many requests for one key at once, through two stores: one row, all get it."""
    stores = [open_store(), open_store()]
    scenario_id = stores[0].save_scenario({"race": "threads"})
    barrier = threading.Barrier(8)
    got: list[StoredResult] = []
    errors: list[BaseException] = []

    def save(n: int) -> None:
        try:
            barrier.wait()
            got.append(stores[n % 2].save_result(scenario_id, "exact", {}, "1", {"n": n}))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=save, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len({result.id for result in got}) == 1
    assert len(got) == 8
    assert count(db_url, ResultRow) == 1
