"""``spacecombat serve`` run for real in its own process, on a free loopback port, for the
tests of issue 25 (a server no request can tie up): ``served`` starts it, waits until it
answers, and stops it with one Ctrl-C (SIGINT) at the end, checking that it stopped with no
traceback in its log."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.web.test_serve import WAIT, free_port


@dataclass
class Served:
    """A running server: its base URL and process."""

    url: str
    port: int
    process: subprocess.Popen[bytes]

    def kill(self) -> None:
        """SIGKILL the server (as the machine's OOM killer or a crash would end it): nothing
        of it runs its stop; its workers end when they find it gone."""
        self.process.kill()
        self.process.wait(timeout=WAIT)

    def workers(self) -> list[int]:
        """The process ids of the server's children (its work pool's workers)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except OSError:
            return []


def call(
    url: str, body: Any = None, *, method: str | None = None, timeout: float = 60.0
) -> tuple[int, dict[str, str], Any]:
    """One request (JSON ``body``, POST, when given): the status, headers and JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


@contextmanager
def served(tmp_path: Path, *args: str) -> Iterator[Served]:
    """``spacecombat serve ARGS`` (its store in ``tmp_path`` unless ``--db`` is given), until
    the block ends: then one SIGINT, and the server must stop with status 0 and no traceback."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "SPACECOMBAT_DB"}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    if "--db" not in args:
        args = (*args, "--db", f"sqlite:///{tmp_path / 'store.db'}")
    process = subprocess.Popen(
        [sys.executable, "-m", "spacecombat", "serve", "--port", str(port), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    server = Served(f"http://127.0.0.1:{port}", port, process)
    try:
        deadline = time.monotonic() + WAIT
        while True:
            assert process.poll() is None, process.communicate()[0].decode()
            try:
                with urllib.request.urlopen(f"{server.url}/api/v1/rulesets", timeout=10):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield server
        if process.poll() == -signal.SIGKILL:
            return  # killed by the test (``Served.kill``)
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        output = process.communicate(timeout=WAIT)[0].decode()
        assert process.returncode == 0, output
        assert "Traceback" not in output, output
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
