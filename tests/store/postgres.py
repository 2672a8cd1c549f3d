"""A throwaway PostgreSQL server for tests: ``initdb`` and ``pg_ctl`` in a temporary directory.

:func:`postgres_server` is a session-scoped pytest fixture (import it into a ``conftest.py``);
:func:`running_postgres` is the same as a context manager. The cluster listens on 127.0.0.1 at
a free port with trust authentication (superuser ``postgres``, no password) and its socket in
the temporary directory; it runs without fsync, for speed. It is stopped and deleted at the end,
also when the tests fail. Several fixtures in one session share one cluster.

The server programs are found on ``PATH``, in ``/usr/lib/postgresql/*/bin`` (Debian's place) or
in ``/usr/local/bin``; when they are missing the fixture fails (it never skips): ``.ci/run``
installs them (Debian's ``postgresql`` package). PostgreSQL refuses to run as root, so as root
the cluster runs as the ``postgres`` user, created (``useradd``) if the machine has none.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import pytest

#: the user the cluster runs as when the tests run as root
SERVER_USER = "postgres"
#: the database superuser (trust authentication, no password)
SUPERUSER = "postgres"
MISSING = (
    "PostgreSQL's server programs (initdb, pg_ctl) are not installed: the store's tests need "
    "a real PostgreSQL server. `.ci/run` installs them (apt-get install postgresql); "
    "on Debian they live in /usr/lib/postgresql/<version>/bin."
)
_DATABASE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server programs are missing or the cluster did not start."""


def find_bindir() -> Path:
    """The directory holding ``initdb`` and ``pg_ctl`` (:class:`PostgresUnavailable` if none)."""
    found = shutil.which("initdb")
    candidates = [Path(found).resolve().parent] if found else []
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
        reverse=True,
    )
    candidates += [*debian, Path("/usr/local/bin")]
    for directory in candidates:
        if (directory / "initdb").is_file() and (directory / "pg_ctl").is_file():
            return directory
    raise PostgresUnavailable(MISSING)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _server_user() -> pwd.struct_passwd | None:
    """The unprivileged user to run the cluster as (None: run as ourselves, not root)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SERVER_USER)
    except KeyError:
        subprocess.run(
            [
                "useradd",
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                SERVER_USER,
            ],
            check=True,
            capture_output=True,
        )
        return pwd.getpwnam(SERVER_USER)


@dataclass
class PostgresServer:
    """A running throwaway cluster."""

    bindir: Path
    root: Path
    port: int
    host: str = "127.0.0.1"
    user: pwd.struct_passwd | None = None
    _databases: int = field(default=0, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    @property
    def logfile(self) -> Path:
        return self.root / "server.log"

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL (no driver named) for ``database`` on this server."""
        return f"postgresql://{SUPERUSER}@{self.host}:{self.port}/{database}"

    def connect(self, database: str = "postgres") -> psycopg.Connection[tuple[object, ...]]:
        """A psycopg connection (autocommit) to ``database``, as the superuser."""
        return psycopg.connect(
            host=self.host, port=self.port, user=SUPERUSER, dbname=database, autocommit=True
        )

    def create_database(self, name: str | None = None) -> str:
        """Create a new empty database (``name``, or a fresh one); return its URL."""
        if name is None:
            with self._lock:
                self._databases += 1
                name = f"test_{self._databases}"
        if not _DATABASE_NAME.fullmatch(name):
            raise ValueError(f"not a plain database name: {name!r}")
        with self.connect() as connection:
            connection.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.url(name)

    def create_schema(self, name: str | None = None) -> str:
        """Create a new empty schema (``name``, or a fresh one) in the ``postgres`` database;
        return a URL whose connections work in it (``search_path``). Much faster than a new
        database (milliseconds, not a quarter of a second), as isolated for the store."""
        if name is None:
            with self._lock:
                self._databases += 1
                name = f"test_{self._databases}"
        if not _DATABASE_NAME.fullmatch(name):
            raise ValueError(f"not a plain schema name: {name!r}")
        with self.connect() as connection:
            connection.execute(f'CREATE SCHEMA "{name}"'.encode())
        return f"{self.url()}?options=-csearch_path%3D{name}"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run one of the server programs as the cluster's user."""
        command = [str(self.bindir / args[0]), *args[1:]]
        user = self.user
        return subprocess.run(
            command,
            check=check,
            capture_output=True,
            text=True,
            cwd=self.root,
            env={**os.environ, "LC_ALL": "C", "LANG": "C", "PGTZ": "UTC"},
            user=None if user is None else user.pw_uid,
            group=None if user is None else user.pw_gid,
            extra_groups=None if user is None else [],
        )

    def stop(self) -> None:
        """Stop the server (immediately: nothing in it is kept)."""
        if (self.datadir / "postmaster.pid").exists():
            self.run(
                "pg_ctl", "stop", "-D", str(self.datadir), "-m", "immediate", "-w", check=False
            )


def start_postgres(attempts: int = 3) -> PostgresServer:
    """Create a cluster in a new temporary directory and start it; the caller stops it and
    deletes :attr:`PostgresServer.root` (see :func:`running_postgres`)."""
    bindir = find_bindir()
    user = _server_user()
    # not under pytest's root-only temporary directory: the server's user must reach it
    root = Path(tempfile.mkdtemp(prefix="spacecombat-pg-"))
    if user is not None:
        os.chown(root, user.pw_uid, user.pw_gid)
    server = PostgresServer(bindir=bindir, root=root, port=0, user=user)
    try:
        created = server.run(
            "initdb",
            "-D",
            str(server.datadir),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
            check=False,
        )
        if created.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {created.stdout}{created.stderr}")
        for attempt in range(attempts):
            server.port = _free_port()
            with (server.datadir / "postgresql.conf").open("a") as conf:
                conf.write(
                    "\n# spacecombat tests\n"
                    "listen_addresses = '127.0.0.1'\n"
                    f"port = {server.port}\n"
                    f"unix_socket_directories = '{root}'\n"
                    "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
                    "max_connections = 100\n"
                )
            started = server.run(
                "pg_ctl",
                "start",
                "-D",
                str(server.datadir),
                "-l",
                str(server.logfile),
                "-w",
                "-t",
                "60",
                check=False,
            )
            if started.returncode == 0:
                return server
            if attempt == attempts - 1:
                log = server.logfile.read_text() if server.logfile.exists() else ""
                raise PostgresUnavailable(
                    f"PostgreSQL did not start: {started.stdout}{started.stderr}\n{log}"
                )
    except BaseException:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
        raise
    raise AssertionError("unreachable")


@contextlib.contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """A throwaway cluster for the ``with`` block; stopped and deleted after it, whatever
    happens inside."""
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.root, ignore_errors=True)


# one cluster per test session, however many folders' fixtures use it
_shared: PostgresServer | None = None
_users = 0
_shared_lock = threading.Lock()


@contextlib.contextmanager
def shared_postgres() -> Iterator[PostgresServer]:
    """The session's one cluster: started by its first user, stopped after its last."""
    global _shared, _users
    with _shared_lock:
        if _shared is None:
            _shared = start_postgres()
        _users += 1
        server = _shared
    try:
        yield server
    finally:
        with _shared_lock:
            _users -= 1
            if _users == 0:
                _shared = None
                server.stop()
                shutil.rmtree(server.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the test session (fails, never skips, when PostgreSQL is
    not installed: see the module's docstring)."""
    try:
        with shared_postgres() as server:
            yield server
    except PostgresUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
