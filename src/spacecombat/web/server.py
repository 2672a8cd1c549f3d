"""uvicorn, as ``spacecombat serve`` runs it (issue 25): its own answer to a request it cannot
parse is JSON like every other error, and a signal to stop first stops the work pools, so that
one Ctrl-C ends the server at once, heavy work in flight or not."""

from __future__ import annotations

import json
from types import FrameType

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from spacecombat.core.limits import one_line
from spacecombat.web.work import stop_all

#: seconds uvicorn waits for the requests in flight after a signal to stop before it cancels
#: them (their work is stopped first: they end at once with 503)
SHUTDOWN_GRACE = 2


class JsonErrorsProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol (h11), whose 400 for a request it cannot parse (a bad
    ``Content-Length``, a malformed request line or header) is the API's JSON error rather
    than plain text."""

    def send_400_response(self, msg: str) -> None:
        body = json.dumps({"error": {"message": one_line(msg) or "invalid HTTP request"}})
        content = body.encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(content)).encode()),
            (b"connection", b"close"),
        ]
        event = h11.Response(status_code=400, headers=headers, reason=b"Bad Request")
        self.transport.write(self.conn.send(event) or b"")
        self.transport.write(self.conn.send(h11.Data(data=content)) or b"")
        self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        self.transport.close()


class Server(uvicorn.Server):
    """uvicorn's server, whose signal to stop (Ctrl-C, SIGTERM) first stops this process's
    work pools (``work.stop_all``): the calls in flight end at once, their requests are
    answered 503, and the server's graceful shutdown has nothing left to wait for."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if not self.should_exit:
            stop_all()
        super().handle_exit(sig, frame)
