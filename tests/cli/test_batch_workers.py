"""``spacecombat odds -`` shares a long batch among worker processes (cli/odds.py ``Answers``,
issue 12): the output is the same, line for line and in order, as answering every line in
this process; Ctrl-C stops the workers at once, with exit status 130 and no traceback."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from typing import Any

import pytest
from benchmarks.odds_speed import random_battle

from spacecombat.cli import main
from spacecombat.cli import odds as odds_command
from tests.helpers import run_cli
from tests.processes import HAS_PROC, children, default_sigint, gone


def _lines(count: int) -> str:
    rng = random.Random(7)
    lines = [json.dumps(random_battle(rng, most=5)) for _ in range(count)]
    bad = {"ruleset": "ti4", "battle": "space", "attacker": {"units": "1 ufo"}, "defender": {}}
    lines.insert(3, json.dumps(bad))
    lines.insert(5, "")
    return "".join(f"{line}\n" for line in lines)


def _batch(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status, out, _ = run_cli(capsys, "odds", "-")
    assert status == 0
    return out


def test_workers_give_the_same_lines_in_the_same_order(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = _lines(24)
    monkeypatch.setattr(odds_command, "ALONE", float("inf"))
    alone = _batch(capsys, monkeypatch, text)
    monkeypatch.setattr(odds_command, "ALONE", 0.0)
    monkeypatch.setattr(odds_command, "cores", lambda: 2)
    shared = _batch(capsys, monkeypatch, text)
    assert shared == alone
    lines = shared.splitlines()
    assert len(lines) == 25  # the blank line gets no answer
    assert json.loads(lines[3])["line"] == 4
    assert "ufo" in json.loads(lines[3])["error"]


CHILD = """
import sys
from spacecombat.cli import odds
odds.ALONE = 0.0
odds.cores = lambda: 2
from spacecombat.cli import console
sys.argv = ["spacecombat", "odds", "-"]
console()
"""


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc")
def test_ctrl_c_stops_a_batchs_workers_without_a_traceback() -> None:
    """Standard input kept open (the batch waits for more lines) once the workers answer: a
    Ctrl-C to the process group, as a terminal sends it, ends the command with status 130 and
    the workers with it."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    assert child.stdin is not None
    try:
        child.stdin.write(_lines(12))
        child.stdin.flush()
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            workers = children(child.pid)
            time.sleep(0.05)
        assert len(workers) == 2
        os.killpg(child.pid, signal.SIGINT)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    assert child.returncode == 130
    assert "Traceback" not in err
    assert gone(workers)


def _batch_in_a_daemon(text: str, results: Any) -> None:
    odds_command.ALONE = 0.0
    setattr(odds_command, "cores", lambda: 2)  # noqa: B010 (the module does not export it)
    sys.stdin = io.StringIO(text)
    out = io.StringIO()
    sys.stdout = out
    status = main(["odds", "-"])
    results.put((status, out.getvalue()))


def test_inside_another_programs_worker_the_batch_is_answered_in_process() -> None:
    """A daemonic process (a worker of another program's pool) may not start processes: the
    batch is then answered in that process, with the same lines."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    text = _lines(6)
    worker = context.Process(target=_batch_in_a_daemon, args=(text, results), daemon=True)
    worker.start()
    status, out = results.get(timeout=60)
    worker.join(timeout=30)
    assert status == 0
    assert len(out.splitlines()) == 7
