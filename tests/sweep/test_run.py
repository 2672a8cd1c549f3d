"""Sweeps on Dask (docs/sweeps.md): on a ``distributed.LocalCluster``; on a real ``dask
scheduler`` with two ``dask worker`` processes on the loopback address, giving the identical
table; the command killed half way and run again, ending with the table of an uninterrupted
run; a worker killed mid-sweep, its points retried elsewhere.

Each point's answer is the one ``odds()`` gives it alone (Monte Carlo with the seed derived
from the sweep's seed and the point: ``spec.point_seed``), so tables are compared exactly.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from distributed import Client, LocalCluster

from spacecombat import odds, sweep
from spacecombat.sweeps.run import TerminalProgress, journal_for
from spacecombat.sweeps.spec import load_spec, point_seed
from tests.sweep.specs import fleet_against_destroyer

BIN = Path(sys.executable).parent

EXACT: dict[str, Any] = {
    "scenario": fleet_against_destroyer(),
    "axes": {
        "defender.units.cruiser": "1..4",
        "defender.technologies": [[], ["assault_cannon"]],
    },
}

#: Monte Carlo points, slow enough (a few tenths of a second each) to interrupt
SLOW: dict[str, Any] = {
    "scenario": {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"dreadnought": 2, "cruiser": 3}},
        "defender": {"units": {"destroyer": 2}},
    },
    "axes": {"defender.units.cruiser": "1..6", "attacker.units.destroyer": "0..4"},
    "method": "montecarlo",
    "trials": 3000,
    "precision": 0,
    "seed": 7,
}


@pytest.fixture(scope="module")
def local() -> Iterator[Client]:
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    client = Client(cluster)  # type: ignore[no-untyped-call]
    yield client
    client.close()  # type: ignore[no-untyped-call]
    cluster.close()


def test_local_cluster_table_is_each_points_odds(local: Client) -> None:
    table = sweep(EXACT, local)
    assert list(table.columns[:5]) == [
        "defender.units.cruiser",
        "defender.technologies",
        "attacker_win",
        "defender_win",
        "draw",
    ]
    assert list(table.columns[-3:]) == ["expected_rounds", "method", "note"]
    assert len(table) == 8
    checked = load_spec(EXACT)
    for number, values in enumerate(checked.points()):
        alone = odds(checked.scenario_at(values)).to_json()
        row = table.iloc[number]
        assert row["defender.units.cruiser"] == values[0]
        assert row["defender.technologies"] == json.dumps(values[1], separators=(", ", ": "))
        assert row["attacker_win"] == alone["attacker_win"]
        assert row["holds_attacker"] == alone["holds"]["attacker"]
        assert row["expected_losses_defender"] == alone["expected_losses"]["defender"]
        assert row["expected_rounds"] == alone["rounds"]["expected"]
        assert row["method"] == "exact"


def test_monte_carlo_points_use_their_own_seed(local: Client) -> None:
    small = {**SLOW, "axes": {"defender.units.cruiser": "1..2"}, "trials": 500}
    table = sweep(small, local)
    checked = load_spec(small)
    for number, values in enumerate(checked.points()):
        alone = odds(
            checked.scenario_at(values),
            method="montecarlo",
            trials=500,
            precision=0,
            workers=1,
            seed=point_seed(7, values),
        )
        assert table.iloc[number]["attacker_win"] == alone.attacker_win
        assert table.iloc[number]["method"] == "montecarlo"


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start(*argv: str, cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(BIN / "dask"), *argv],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _rows(journal: Path) -> int:
    path = journal / "rows.jsonl"
    return len(path.read_text().splitlines()) if path.exists() else 0


def _wait_for_rows(journal: Path, least: int, process: subprocess.Popen[bytes] | None) -> None:
    deadline = time.monotonic() + 120
    while _rows(journal) < least:
        assert time.monotonic() < deadline, "the sweep made no progress"
        assert process is None or process.poll() is None, "the sweep ended too early"
        time.sleep(0.05)


@pytest.mark.slow
def test_external_scheduler_and_a_lost_worker(local: Client, tmp_path: Path) -> None:
    reference = sweep(SLOW, local)
    port = _port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _start(
        "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard", cwd=tmp_path
    )
    workers = [
        _start(
            "worker",
            address,
            "--nthreads",
            "1",
            "--no-nanny",
            "--no-dashboard",
            "--host",
            "127.0.0.1",
            cwd=tmp_path,
        )
        for _ in range(2)
    ]
    try:
        client = Client(address, timeout=60)  # type: ignore[no-untyped-call]
        client.wait_for_workers(2, timeout=60)
        # the same table on the external cluster, through the command line
        out = tmp_path / "external.parquet"
        done = subprocess.run(
            [
                str(BIN / "spacecombat"),
                "sweep",
                _spec_file(tmp_path, SLOW),
                "--out",
                str(out),
                "--scheduler",
                address,
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        pd.testing.assert_frame_equal(pd.read_parquet(out), reference)
        # a worker killed mid-sweep: its points are solved again by the other
        journal = tmp_path / "lost.partial"
        result: dict[str, pd.DataFrame] = {}
        thread = threading.Thread(
            target=lambda: result.update(table=sweep(SLOW, client, journal=journal))
        )
        thread.start()
        _wait_for_rows(journal, 4, None)
        os.kill(workers[0].pid, signal.SIGKILL)
        thread.join(timeout=300)
        assert not thread.is_alive()
        pd.testing.assert_frame_equal(result["table"], reference)
        client.close()  # type: ignore[no-untyped-call]
    finally:
        for process in [*workers, scheduler]:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def _spec_file(tmp_path: Path, spec: dict[str, Any]) -> str:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    return str(path)


@pytest.mark.slow
def test_killed_and_resumed_gives_the_uninterrupted_table(local: Client, tmp_path: Path) -> None:
    reference = sweep(SLOW, local)
    spec = _spec_file(tmp_path, SLOW)
    out = tmp_path / "table.parquet"
    command = [str(BIN / "spacecombat"), "sweep", spec, "--out", str(out), "--workers", "1"]
    # the command killed half way, with its local cluster (the machine restarted)
    first = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    journal = journal_for(out)
    _wait_for_rows(journal, 8, first)
    os.killpg(first.pid, signal.SIGKILL)
    first.wait(timeout=30)
    kept = _rows(journal)
    assert 8 <= kept < 30
    assert not out.exists()  # written whole or not at all
    # run again: only the rest is solved, and the table is the uninterrupted run's
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"30 points ({kept} kept from before)" in again.stdout
    pd.testing.assert_frame_equal(pd.read_parquet(out), reference)
    assert not journal.exists()


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_points(tmp_path: Path) -> None:
    """Ctrl-C: exit status 130, no table, the finished points kept, the local cluster
    stopped; the same command again finishes the table."""
    longer = {**SLOW, "trials": 20_000}
    spec = _spec_file(tmp_path, longer)
    out = tmp_path / "table.parquet"
    command = [str(BIN / "spacecombat"), "sweep", spec, "--out", str(out), "--workers", "1"]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    journal = journal_for(out)
    _wait_for_rows(journal, 3, first)
    first.send_signal(signal.SIGINT)
    _, err = first.communicate(timeout=60)
    assert first.returncode == 130
    assert b"interrupted" in err
    assert not out.exists()
    kept = _rows(journal)
    assert 3 <= kept < 30
    again = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert f"30 points ({kept} kept from before)" in again.stdout
    assert len(pd.read_parquet(out)) == 30


def test_progress_says_points_rate_and_time_left(capsys: pytest.CaptureFixture[str]) -> None:
    progress = TerminalProgress()
    progress(0, 10)
    time.sleep(0.05)
    progress(5, 10)
    progress(10, 10)
    err = capsys.readouterr().err
    assert "\rsweep: 5/10 points, " in err
    assert "/s, " in err
    assert " s left" in err
    assert err.endswith("\n")
