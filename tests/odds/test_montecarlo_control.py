"""Issue 8: Monte Carlo is bounded and stops when asked. Options are checked for library callers
as the command line checks them (core/limits.py); batches are made lazily, a few per worker in
flight; Ctrl-C stops the workers at once with no traceback from any of them, and workers stop
if their parent dies (analysis/montecarlo.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.analysis import montecarlo
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_TRIALS, max_workers
from tests.helpers import space
from tests.processes import children, default_sigint, gone, running

DUEL = space({"units": "2 cruiser"}, {"units": "1 dreadnought"})


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"trials": 0}, "trials"),
        ({"trials": MAX_TRIALS + 1}, "trials"),
        ({"trials": True}, "trials"),
        ({"trials": 20.0}, "trials"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"seed": "7"}, "seed"),
        ({"workers": 0}, "workers"),
        ({"workers": max_workers() + 1}, "workers"),
        ({"workers": True}, "workers"),
    ],
)
def test_options_out_of_range_are_refused_naming_them(options: dict[str, Any], field: str) -> None:
    """Trials from 1 to MAX_TRIALS, a seed from 0 to 2^64 - 1, workers from 1 to
    max_workers(): whole numbers written as such, as on the command line."""
    with pytest.raises(ScenarioError, match=f"^{field}: must be a whole number from "):
        montecarlo.monte_carlo(DUEL, **options)


def test_odds_checks_the_monte_carlo_options_even_when_exact() -> None:
    """``odds()`` may fall back to Monte Carlo at any time: its options are checked first."""
    with pytest.raises(ScenarioError, match=r"^workers: "):
        odds(DUEL, workers=10**6)


def test_batches_are_made_as_they_are_needed() -> None:
    """A million trials are never a list: the first batch comes without making the others."""
    made = montecarlo.batches(1_000_000, 2_000)
    assert isinstance(made, Iterator)
    assert next(made) == (0, 2_000)
    assert list(montecarlo.batches(5, 2)) == [(0, 2), (2, 2), (4, 1)]


def test_at_most_a_few_batches_per_worker_are_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    """On 2 workers, 600 trials in batches of 75 (an eighth of the cap: ``CHECKS``): whenever
    a batch is done, at most IN_FLIGHT x 2 more have been drawn than are done."""
    drawn = [0]
    real = montecarlo.batches

    def counted(trials: int, size: int) -> Iterator[tuple[int, int]]:
        for batch in real(trials, size):
            drawn[0] += 1
            yield batch

    ahead: list[int] = []

    def progress(done: int, total: int, widest: float | None) -> None:
        ahead.append(drawn[0] - done // 75)

    monkeypatch.setattr(montecarlo, "batches", counted)
    monkeypatch.setattr(montecarlo, "POOL_AFTER", 0.0)  # the pool, however short the run
    report = montecarlo.monte_carlo(DUEL, trials=600, seed=1, workers=2, progress=progress)
    assert report.trials == 600
    assert drawn[0] == 8
    assert max(ahead) <= montecarlo.IN_FLIGHT * 2


#: a child that runs Monte Carlo on 2 workers for long, saying when the first batch is done
CHILD = """
import sys
from spacecombat.analysis.montecarlo import monte_carlo
attacker, defender = {"units": "2 cruiser"}, {"units": "1 dreadnought"}
scenario = {"ruleset": "ti4", "battle": "space", "attacker": attacker, "defender": defender}
def progress(done, total, widest):
    print("running", flush=True)
try:
    monte_carlo(scenario, trials=1_000_000, precision=0, workers=2, progress=progress)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
"""


def _start_child() -> tuple[subprocess.Popen[str], list[int]]:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    assert child.stdout is not None
    line = child.stdout.readline()  # the first batch is done: the workers are running
    assert line == "running\n", child.stderr.read() if child.stderr else ""
    workers = children(child.pid)
    assert len(workers) == 2
    return child, workers


@pytest.mark.alone  # (its workers must be gone at once: once late beside a busy core)
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_ctrl_c_stops_the_workers_at_once_without_a_traceback() -> None:
    """SIGINT to the whole process group, as a terminal's Ctrl-C sends it: the workers ignore
    it, the parent gets KeyboardInterrupt, stops the workers and re-raises; nothing is printed
    by any worker."""
    child, workers = _start_child()
    try:
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    assert (child.returncode, out.splitlines()[-1]) == (130, "interrupted")
    assert "Traceback" not in err
    assert err == ""
    assert gone(workers)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_workers_stop_when_their_parent_dies() -> None:
    """The parent killed outright (no chance to clean up): each worker notices it has a new
    parent within workers.WATCH seconds (analysis/workers.py) and exits."""
    child, workers = _start_child()
    try:
        child.kill()
        child.communicate(timeout=30)
        assert gone(workers)
    finally:
        for worker in workers:
            if running(worker):
                os.kill(worker, signal.SIGKILL)
