"""``spacecombat serve`` for real: started with no configuration (its store in the user's data
folder, here a temporary one) and with ``--db``, on a free port of the loopback address, in
its own process; it answers ``/api/v1/rulesets`` and stops on Ctrl-C (SIGINT)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from spacecombat.cli import main

#: the longest the server may take to start or stop before the test fails
WAIT = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get(url: str) -> tuple[int, dict[str, object]]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, json.loads(answer.read())


def serve(tmp_path: Path, *args: str) -> None:
    """Start ``spacecombat serve`` with ``args``, check that it answers, stop it."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "SPACECOMBAT_DB"}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    server = subprocess.Popen(
        [sys.executable, "-m", "spacecombat", "serve", "--port", str(port), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + WAIT
        while True:
            assert server.poll() is None, server.communicate()[0].decode()
            try:
                status, body = get(f"http://127.0.0.1:{port}/api/v1/rulesets")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert status == 200
        assert set(body) == {"ti4", "ti3", "ec4x"}
        server.send_signal(signal.SIGINT)
        output = server.communicate(timeout=WAIT)[0].decode()
        assert server.returncode == 0, output
        assert "Traceback" not in output
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_serve_starts_with_no_configuration(tmp_path: Path) -> None:
    serve(tmp_path)
    assert list((tmp_path / "data").rglob("*.db")) or list((tmp_path / "data").rglob("*sqlite*"))


@pytest.mark.slow
def test_serve_uses_the_store_it_is_given(tmp_path: Path) -> None:
    serve(tmp_path, "--db", f"sqlite:///{tmp_path / 'given.db'}")
    assert (tmp_path / "given.db").exists()


@pytest.mark.slow
def test_several_server_processes_share_one_store(tmp_path: Path) -> None:
    """``--processes 2``: uvicorn starts two processes with the app's factory, both on the
    store given (told through the environment), and Ctrl-C stops them all."""
    serve(tmp_path, "--db", f"sqlite:///{tmp_path / 'shared.db'}", "--processes", "2")
    assert (tmp_path / "shared.db").exists()
    assert not list((tmp_path / "data").rglob("*sqlite*"))


def test_a_bad_store_url_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0", "--db", "mysql://nowhere/db"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("spacecombat: --db: cannot open the store: ")
    assert len(err.splitlines()) == 1


def test_a_port_already_taken_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"spacecombat: --port: cannot listen on '127.0.0.1' port {port}: ")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--time-limit", "0", "from 1 to 600"),
        ("--time-limit", "601", "from 1 to 600"),
        ("--time-limit", "soon", "is not a number"),
        ("--max-requests", "0", "is not at least 1"),
    ],
)
def test_a_bad_time_limit_or_request_cap_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], option: str, value: str, words: str
) -> None:
    """Issue 25: ``serve --time-limit`` (seconds, 1 to 600) and ``--max-requests`` (at least
    1) are checked before anything starts."""
    assert main(["serve", "--port", "0", option, value]) == 2
    err = capsys.readouterr().err
    assert option in err
    assert words in err
    assert len(err.strip().splitlines()) == 1
