"""Issue 25, load: a server whose requests are all taken answers the next one 503 with
``Retry-After`` before reading its body, a JSON error like any other, and takes requests again
once its work is done (ruling 25S-2). Against ``spacecombat serve`` itself, on SQLite and on
PostgreSQL (a throwaway cluster). How fast a shed answer comes is measured in
benchmarks/load.py, not here."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

from tests.store.postgres import PostgresServer, postgres_server
from tests.web.running import call, served
from tests.web.test_server_limits import SMALL, heavy, send_and_leave

__all__ = ["postgres_server"]

#: timings against the server's limits: no other test runs meanwhile (tests/conftest.py)
pytestmark = pytest.mark.alone


def _answer(connection: socket.socket) -> tuple[int, dict[str, str], dict[str, object]]:
    """Read one HTTP answer (with a Content-Length) from a raw connection."""
    connection.settimeout(60)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {
        name.strip().lower(): value.strip()
        for name, _, value in (line.partition(":") for line in lines[1:])
    }
    while len(body) < int(headers["content-length"]):
        chunk = connection.recv(65536)
        assert chunk, body
        body += chunk
    return int(lines[0].split()[1]), headers, json.loads(body)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_full_server_sheds_before_reading_the_body_with_retry_after(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'store.db'}"
    else:
        cluster: PostgresServer = request.getfixturevalue("postgres_server")
        url = cluster.create_schema()
    with served(tmp_path, "--db", url, "--max-requests", "1", "--time-limit", "600") as server:
        held = send_and_leave(server.port, heavy(1))  # an hour of work: the one place taken
        time.sleep(1.0)
        # a request whose body never comes: answered at once, its body unread
        waiting = socket.create_connection(("127.0.0.1", server.port))
        waiting.sendall(
            b"POST /api/v1/odds HTTP/1.1\r\nHost: test\r\ncontent-type: application/json\r\n"
            b"content-length: 100000\r\n\r\n"
        )
        status, headers, body = _answer(waiting)
        waiting.close()
        assert status == 503
        assert int(headers["retry-after"]) >= 1
        assert headers["content-type"] == "application/json"
        assert "busy" in str(body["error"])
        # any API request is shed alike
        status, headers, body = call(f"{server.url}/api/v1/scenarios", {"scenario": SMALL})
        assert status == 503
        assert int(headers["retry-after"]) >= 1
        # the client of the held request leaves: its work is stopped, its place free again
        held.close()
        for _ in range(20):
            status, headers, body = call(f"{server.url}/api/v1/odds", {"scenario": SMALL})
            if status != 503:
                break
            time.sleep(int(headers["retry-after"]))
        assert status == 200, body
        assert body["stored"] is True
