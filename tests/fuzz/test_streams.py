"""The command line against real streams (issue 8), as a subprocess under a 1 GB address-space
limit: a closed standard input or output, a full disk, a broken pipe, bytes that are not UTF-8
on standard input, and Ctrl-C during a Monte Carlo run (status 130, one line, and no worker
process left behind). Never a traceback."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "odds-dreadnoughts-vs-cruisers.yaml")
SPACECOMBAT = [sys.executable, "-m", "spacecombat"]
MEMORY = 1 << 30
TIMEOUT = 60


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    # as a terminal starts a command: Ctrl-C not ignored, even when the tests themselves run
    # in the background (a shell starts background jobs with SIGINT ignored, and Python then
    # leaves it ignored)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SPACECOMBAT_DEBUG"}
    env.update(extra)
    return env


def shell(
    script: str, stdin: bytes | None = None, **env: str
) -> subprocess.CompletedProcess[bytes]:
    """``script`` run by bash, ``$SC`` being the command line."""
    command = " ".join(f"'{part}'" for part in SPACECOMBAT)
    return subprocess.run(
        ["bash", "-c", f"SC=({command}); {script}"],
        input=stdin,
        capture_output=True,
        preexec_fn=_limited,
        timeout=TIMEOUT,
        env=_env(**env),
        check=False,
    )


def one_line(stderr: bytes) -> str:
    """The one line on standard error (asserted), decoded."""
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text
    lines = text.splitlines()
    assert len(lines) == 1, text
    assert lines[0].startswith("spacecombat: "), text
    return lines[0]


@pytest.mark.parametrize(
    "argv",
    [("resolve", "-"), ("odds", "-"), ("replay", "-")],
    ids=["resolve", "odds", "replay"],
)
def test_closed_standard_input(argv: tuple[str, ...]) -> None:
    done = shell(f'"${{SC[@]}}" {" ".join(argv)} 0<&-')
    assert done.returncode == 74, done
    assert one_line(done.stderr) == "spacecombat: standard input is closed"
    assert done.stdout == b""


@pytest.mark.parametrize(
    "argv",
    [("resolve", EXAMPLE, "--seed", "1"), ("odds", EXAMPLE)],
    ids=["resolve", "odds"],
)
def test_closed_standard_output(argv: tuple[str, ...]) -> None:
    done = shell(f'"${{SC[@]}}" {" ".join(argv)} 1>&-')
    assert done.returncode == 74, done
    assert one_line(done.stderr) == "spacecombat: standard output is closed"


def test_output_to_a_full_disk() -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    done = shell(f'"${{SC[@]}}" resolve {EXAMPLE} --seed 1 --format jsonl > /dev/full')
    assert done.returncode == 74, done
    assert one_line(done.stderr) == "spacecombat: cannot write the output: No space left on device"


def test_a_broken_pipe() -> None:
    """The reader goes away after one byte; the batch's next results meet a broken pipe."""
    scenario = json.dumps(
        {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": {"units": "2 dreadnought"},
            "defender": {"units": "3 cruiser"},
        }
    )
    batch = (scenario + "\n").encode() * 12
    done = shell(
        '"${SC[@]}" odds - --method montecarlo --trials 300 --workers 1 | head -c 1 >/dev/null;'
        " exit ${PIPESTATUS[0]}",
        stdin=batch,
    )
    assert done.returncode == 141, done
    assert b"Traceback" not in done.stderr
    assert done.stderr == b"", done.stderr


@pytest.mark.parametrize(
    ("argv", "data"),
    [
        (("resolve", "-"), b"ruleset: ti4\nbattle: space\xff\xfe\n"),
        (("resolve", "-"), "ruleset: ti4\n".encode("utf-16")),
        (("replay", "-"), b'{"event": "battle_started"\xc3}\n'),
    ],
    ids=["resolve", "resolve-utf16", "replay"],
)
def test_invalid_utf8_on_standard_input(argv: tuple[str, ...], data: bytes) -> None:
    done = shell(f'"${{SC[@]}}" {" ".join(argv)}', stdin=data, PYTHONIOENCODING="utf-8:strict")
    assert done.returncode == 2, done
    assert "UTF-8" in one_line(done.stderr)
    assert done.stdout == b""


def test_invalid_utf8_in_a_batch_line() -> None:
    """A line of a batch that is not UTF-8 gets its error; the other lines their odds."""
    good = json.dumps(
        {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": {"units": "1 cruiser"},
            "defender": {"units": "1 destroyer"},
        }
    ).encode()
    data = good + b"\n" + b'{"ruleset": "ti4\xff"}\n' + good + b"\n"
    done = shell('"${SC[@]}" odds -', stdin=data, PYTHONIOENCODING="utf-8:strict")
    assert (done.returncode, done.stderr) == (0, b""), done
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [("error" in r, r.get("line")) for r in results] == [
        (False, None),
        (True, 2),
        (False, None),
    ]


def test_invalid_utf8_answer_to_a_question() -> None:
    """``--ask``: an answer that is not UTF-8 on a strict standard input."""
    done = shell(
        f'"${{SC[@]}}" resolve {EXAMPLE} --seed 1 --ask attacker',
        stdin=b"\xff\xfe\n" * 20,
        PYTHONIOENCODING="utf-8:strict",
    )
    text = done.stderr.decode("utf-8", "replace")
    assert done.returncode in (2, 74), done
    assert "Traceback" not in text
    assert "spacecombat: " in text.splitlines()[-1]


def _group_alive(group: int) -> list[str]:
    """Processes of process group ``group`` that are still running (not zombies)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == group and fields[0] != "Z":
            alive.append(f"{entry.name} {stat[:80]}")
    return alive


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.slow
def test_ctrl_c_during_monte_carlo_stops_the_workers() -> None:
    process = subprocess.Popen(
        [
            *SPACECOMBAT,
            "odds",
            EXAMPLE,
            "--method",
            "montecarlo",
            "--trials",
            "1000000",
            "--precision",
            "0",  # exactly the trials asked: the run never stops on its own first
            "--workers",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_limited,
        start_new_session=True,
        env=_env(),
    )
    group = process.pid  # its own session and process group
    try:
        time.sleep(2.0)
        assert process.poll() is None, "the Monte Carlo run ended before Ctrl-C"
        os.killpg(group, signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            os.killpg(group, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, (process.returncode, err)
    assert "interrupted" in one_line(err)
    assert out == b""
    deadline = time.monotonic() + 5
    while _group_alive(group) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _group_alive(group)
    for line in left:
        os.kill(int(line.split()[0]), signal.SIGKILL)
    assert not left, f"worker processes left behind: {left}"
