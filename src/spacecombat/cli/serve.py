"""``spacecombat serve``: the HTTP API and the page, under uvicorn, until Ctrl-C (one Ctrl-C
stops the work in flight and ends the server within seconds: ``web/server.py``).

The store is opened, and the address tried, before the server starts, so that a bad ``--db``
(or ``SPACECOMBAT_DB``) or a port already taken is one line and exit status 2, like any bad
input, rather than a failed start-up."""

from __future__ import annotations

import argparse
import contextlib
import os
import socket

import uvicorn
from sqlalchemy.exc import SQLAlchemyError

from spacecombat.cli import status
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import cores, one_line, shown
from spacecombat.store import DB_ENV, Store
from spacecombat.web import MAX_REQUESTS_ENV, POOL_WORKERS_ENV, TIME_LIMIT_ENV, create_app
from spacecombat.web.server import SHUTDOWN_GRACE, JsonErrorsProtocol, Server


def run(args: argparse.Namespace) -> int:
    """Open the store (``--db``, else ``SPACECOMBAT_DB``, else SQLite in the user's data
    folder; created and migrated on first use) and serve the app on ``--host``:``--port``,
    each request's work within ``--time-limit`` seconds, at most ``--max-requests`` API
    requests at once; a line logged for each request only with ``--access-log`` (ruling
    25L-1)."""
    check_address(args.host, args.port)
    try:
        store = Store(args.db)
    except (ValueError, OSError, SQLAlchemyError) as exc:
        reason = one_line(str(exc).split("\n", 1)[0])[:300]
        raise ScenarioError("--db", f"cannot open the store: {reason}") from exc
    if args.processes == 1:
        try:
            config = uvicorn.Config(
                create_app(store, time_limit=args.time_limit, max_requests=args.max_requests),
                host=args.host,
                port=args.port,
                log_level="info",
                http=JsonErrorsProtocol,
                timeout_graceful_shutdown=SHUTDOWN_GRACE,
                access_log=args.access_log,
            )
            # uvicorn raises the signal again once it has stopped (as uvicorn.run, ignored)
            with contextlib.suppress(KeyboardInterrupt):
                Server(config).run()
        finally:
            store.close()
        return status.DONE
    # Several processes: uvicorn starts each with the app's factory, which opens the same
    # store (told by the environment) and a work pool of its share of the cores. Each stops on
    # its signal after a grace of SHUTDOWN_GRACE seconds: the requests still in flight are
    # cancelled then, and their work with them.
    store.close()
    os.environ[DB_ENV] = store.url_with_password
    os.environ[POOL_WORKERS_ENV] = str(max(1, cores() // args.processes))
    os.environ[TIME_LIMIT_ENV] = repr(args.time_limit)
    os.environ[MAX_REQUESTS_ENV] = str(args.max_requests)
    uvicorn.run(
        "spacecombat.web:app_from_environment",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.processes,
        log_level="info",
        http=JsonErrorsProtocol,
        timeout_graceful_shutdown=SHUTDOWN_GRACE,
        access_log=args.access_log,
    )
    return status.DONE


def check_address(host: str, port: int) -> None:
    """Refuse an address the server could not listen on (an unknown host, a port taken or
    not allowed), before anything starts."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise ScenarioError("--host", f"cannot listen on {shown(host)}: {exc}") from exc
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise ScenarioError(
                "--port", f"cannot listen on {shown(host)} port {port}: {exc.strerror or exc}"
            ) from exc
