"""A light HTTP/1.1 client on asyncio streams, for the load benchmark (``benchmarks/load.py``).

A load benchmark's client runs on the same cores as the server, and its latencies are taken
by its own event loop: the time a response waits in the client's socket until its loop gets
to it is counted as the server's. With ``httpx`` (an ``AsyncClient`` per connection, 200 of
them in one process) the client's loop lagged up to 140 ms at its p99 under the load (a
monitor task sleeping 5 ms, woken that late), and the client took a third of the CPU the
server did: most of the shed answers' tail was the client's own. This client writes a request
and reads its answer with no more than the protocol needs (a status line, headers, a body of
``Content-Length`` bytes; one connection, kept alive), so that what it measures is the
server's.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass


class WireError(Exception):
    """The exchange failed: the connection closed or reset, or an answer this client cannot
    read (no ``Content-Length``)."""


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: its status, headers (names in lower case) and body."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Connection:
    """One keep-alive connection to ``127.0.0.1:port``, opened at the first request (and again
    after the server closed it, or after ``idle`` seconds unused: before the server's own
    keep-alive of 5 s closes it under a request)."""

    def __init__(self, port: int, timeout: float = 120.0, idle: float = 4.0) -> None:
        self.port = port
        self.timeout = timeout
        self.idle = idle
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._last = 0.0

    async def close(self) -> None:
        if self._streams is not None:
            writer = self._streams[1]
            self._streams = None
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def request(
        self, method: str, path: str, body: bytes = b"", content_type: str = "application/json"
    ) -> Answer:
        """One exchange; ``WireError`` if it fails (the connection is then dropped)."""
        if self._streams is not None and time.monotonic() - self._last > self.idle:
            await self.close()
        try:
            if self._streams is None:
                self._streams = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = self._streams
            head = f"{method} {path} HTTP/1.1\r\nhost: 127.0.0.1:{self.port}\r\n"
            if body or method == "POST":
                head += f"content-type: {content_type}\r\ncontent-length: {len(body)}\r\n"
            writer.write(head.encode("ascii") + b"\r\n" + body)
            answer = await asyncio.wait_for(self._read(reader), self.timeout)
        except (
            OSError,
            TimeoutError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            ValueError,
            WireError,
        ) as exc:
            await self.close()
            raise WireError(f"{type(exc).__name__}: {exc}") from exc
        self._last = time.monotonic()
        if answer.headers.get("connection", "").lower() == "close":
            await self.close()
        return answer

    @staticmethod
    async def _read(reader: asyncio.StreamReader) -> Answer:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        length = headers.get("content-length")
        if length is None or not length.isdigit():
            raise WireError("an answer without a Content-Length")
        body = await reader.readexactly(int(length)) if int(length) else b""
        return Answer(status, headers, body)
