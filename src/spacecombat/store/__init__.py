"""The store: scenarios, odds results and battle logs, in SQLite or PostgreSQL.

A :class:`Store` opens a database (SQLite in the user's data directory by default,
``SPACECOMBAT_DB`` or a URL to choose another, ``postgresql://…`` included), brings its schema
to the newest revision with the packaged Alembic migrations, and keeps

- **scenarios** by the hash of their canonical JSON: the same battle saved twice is one row,
  and its id (16 lowercase base32 characters) is derived from the hash;
- **results** (odds reports) keyed by scenario, method, options and engine version, each
  written in one transaction, whole or not at all; saving a key again returns the row there;
- **battle logs**: a battle's events with the seed its dice were rolled from.

Lookups take ids from clients: a malformed id is answered ``None`` without a query. The only
file the store touches is the database its operator chose.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self

import platformdirs
from sqlalchemy import URL, Engine, create_engine, event, make_url, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool
from sqlalchemy.sql.dml import Insert

from spacecombat.core.limits import MAX_SEED
from spacecombat.store.ids import (
    ID_LENGTH,
    canonical_json,
    id_from_digest,
    random_id,
    sha256_hex,
    valid_id,
)
from spacecombat.store.migrate import IMMEDIATE, upgrade
from spacecombat.store.models import ENGINE_LENGTH, METHOD_LENGTH, LogRow, ResultRow, ScenarioRow

__all__ = [
    "DB_ENV",
    "DEFAULT_FILE",
    "ID_LENGTH",
    "Store",
    "StoredLog",
    "StoredResult",
    "UnknownScenarioError",
    "resolve_url",
]

#: the environment variable naming the database when no URL is given
DB_ENV: Final = "SPACECOMBAT_DB"
#: the SQLite file used when neither a URL nor the environment names a database
DEFAULT_FILE: Final = "spacecombat.sqlite3"
#: how long (seconds) a SQLite connection waits for another process's write lock
SQLITE_BUSY_TIMEOUT: Final = 30.0


class UnknownScenarioError(LookupError):
    """A result or log was saved for a scenario id the store does not hold."""


@dataclass(frozen=True)
class StoredResult:
    """An odds report as stored, with what it is keyed by."""

    id: str
    scenario_id: str
    method: str
    options: dict[str, Any]
    engine: str
    report: dict[str, Any]
    created: datetime


@dataclass(frozen=True)
class StoredLog:
    """A battle log as stored: its events and the seed of its dice (None: no seed)."""

    id: str
    scenario_id: str
    seed: int | None
    events: list[dict[str, Any]]
    created: datetime


def resolve_url(url: str | None = None) -> URL:
    """The database URL the store opens for ``url``.

    None means the ``SPACECOMBAT_DB`` environment variable, and failing that the SQLite file
    :data:`DEFAULT_FILE` in the user's data directory (created). A PostgreSQL URL without a
    driver (``postgresql://`` or ``postgres://``) gets psycopg 3's. Only SQLite and PostgreSQL
    are accepted (``ValueError`` otherwise, or for a URL that does not parse).
    """
    if url is None:
        url = os.environ.get(DB_ENV) or None
    if url is None:
        directory = Path(platformdirs.user_data_dir("spacecombat"))
        directory.mkdir(parents=True, exist_ok=True)
        return URL.create("sqlite", database=str(directory / DEFAULT_FILE))
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise ValueError(f"not a database URL: {exc}") from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise ValueError(
            f"unsupported database {parsed.get_backend_name()!r}: use sqlite:/// or postgresql://"
        )
    return parsed


def _sqlite_connect(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
    """Each new SQLite connection: our own transactions (see :func:`_sqlite_begin`), foreign
    keys enforced, and write-ahead logging so readers never wait for a writer, synced at
    checkpoints."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys = ON")
        (mode,) = cursor.execute("PRAGMA journal_mode").fetchone()
        if str(mode).lower() not in ("wal", "memory"):
            # switching needs the database to itself: another process starting at the same
            # moment may hold it, and SQLite does not always wait (busy_timeout) for that
            deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT
            while True:
                try:
                    cursor.execute("PRAGMA journal_mode = WAL").fetchone()
                    break
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        raise
                    time.sleep(0.02)
        # With write-ahead logging, NORMAL syncs at checkpoints, not at every commit: a commit
        # is still atomic and survives the server being killed; only a power cut may lose the
        # last ones (never half of one). Each write transaction holds the lock far shorter.
        cursor.execute("PRAGMA synchronous = NORMAL")
    finally:
        cursor.close()


def _sqlite_begin(connection: Any) -> None:
    """Start a SQLite transaction; writes take the write lock at once (``BEGIN IMMEDIATE``),
    so a transaction that reads before it writes never fails to upgrade its lock."""
    immediate = connection.get_execution_options().get(IMMEDIATE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _create_engine(url: URL) -> Engine:
    """An engine for ``url``, serializing JSON canonically."""
    if url.get_backend_name() != "sqlite":
        return create_engine(url, json_serializer=canonical_json, pool_pre_ping=True)
    connect_args = {"timeout": SQLITE_BUSY_TIMEOUT, "check_same_thread": False}
    if url.database in (None, "", ":memory:"):
        # one database per connection otherwise: share a single connection
        engine = create_engine(
            url, json_serializer=canonical_json, connect_args=connect_args, poolclass=StaticPool
        )
    else:
        engine = create_engine(url, json_serializer=canonical_json, connect_args=connect_args)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    """A stored timestamp in UTC (SQLite gives it back without its zone)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _document(value: object, what: str) -> dict[str, Any]:
    """``value`` as a JSON object, checked: a mapping with string keys that JSON can hold."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be a mapping, not {type(value).__name__}")
    document = dict(value)
    canonical_json(document)  # TypeError / ValueError for what JSON cannot hold
    return document


def _label(value: object, what: str, longest: int) -> str:
    if not isinstance(value, str) or not value or len(value) > longest:
        raise ValueError(f"{what} must be a non-empty string of at most {longest} characters")
    return value


def _result_key(scenario_id: str, method: str, options: Mapping[str, Any], engine: str) -> str:
    """What a result is keyed by, hashed: scenario, method, options and engine version."""
    return sha256_hex(canonical_json([scenario_id, method, dict(options), engine]))


def _stored_result(row: ResultRow) -> StoredResult:
    return StoredResult(
        id=row.id,
        scenario_id=row.scenario_id,
        method=row.method,
        options=row.options,
        engine=row.engine,
        report=row.report,
        created=_utc(row.created),
    )


def _stored_log(row: LogRow) -> StoredLog:
    return StoredLog(
        id=row.id,
        scenario_id=row.scenario_id,
        seed=None if row.seed is None else int(row.seed),
        events=row.events,
        created=_utc(row.created),
    )


class Store:
    """Scenarios, results and battle logs in one database (see the module's docstring).

    Safe to share between threads; open one per process (not across a fork). Close it with
    :meth:`close`, or use it as a context manager.
    """

    def __init__(self, url: str | None = None) -> None:
        """Open the database ``url`` (see :func:`resolve_url`) and migrate it to head."""
        self._url = resolve_url(url)
        self._engine = _create_engine(self._url)
        try:
            upgrade(self._engine)
        except BaseException:
            self._engine.dispose()
            raise

    @property
    def url(self) -> str:
        """The database's URL, its password hidden."""
        return self._url.render_as_string(hide_password=True)

    @property
    def url_with_password(self) -> str:
        """The database's URL as opened, password included (to hand to another process)."""
        return self._url.render_as_string(hide_password=False)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the store's connections."""
        self._engine.dispose()

    # -- transactions ------------------------------------------------------------------

    @contextmanager
    def _writing(self) -> Iterator[Session]:
        """A session in one write transaction: committed at the end, rolled back on error."""
        with Session(self._engine) as session, session.begin():
            session.connection(execution_options={IMMEDIATE: True})
            yield session

    def _insert_ignoring_conflicts(self, model: type[Any]) -> Insert:
        """``INSERT … ON CONFLICT DO NOTHING``: a row already there (a unique key saved by
        another request, even one racing this one) is kept, not an error."""
        if self._engine.dialect.name == "postgresql":
            return postgresql.insert(model).on_conflict_do_nothing()
        return sqlite.insert(model).on_conflict_do_nothing()

    @staticmethod
    def _require_scenario(session: Session, scenario_id: str) -> None:
        if not valid_id(scenario_id) or session.get(ScenarioRow, scenario_id) is None:
            raise UnknownScenarioError(f"no scenario {scenario_id!r} in the store")

    # -- scenarios ---------------------------------------------------------------------

    @staticmethod
    def scenario_id(scenario: Mapping[str, Any]) -> str:
        """The id ``scenario`` has (or would have) in any store: the first 16 base32
        characters of the sha256 of its canonical JSON (sorted keys, no whitespace)."""
        return id_from_digest(sha256_hex(canonical_json(_document(scenario, "a scenario"))))

    def save_scenario(self, scenario: Mapping[str, Any]) -> str:
        """Store ``scenario`` (once: by the hash of its canonical JSON); return its id
        (:meth:`scenario_id`). A scenario already stored is only read, not written again."""
        body = _document(scenario, "a scenario")
        digest = sha256_hex(canonical_json(body))
        scenario_id = id_from_digest(digest)
        with Session(self._engine) as session:
            stored = session.scalars(
                select(ScenarioRow.digest).where(ScenarioRow.id == scenario_id)
            ).one_or_none()
        if stored is None:
            with self._writing() as session:
                stored = self._insert_scenario(session, scenario_id, digest, body)
        if stored != digest:  # 80 bits of sha256 alike: never seen, but never mixed up
            raise RuntimeError(f"scenario id {scenario_id} is taken by another scenario")
        return scenario_id

    def _insert_scenario(
        self, session: Session, scenario_id: str, digest: str, body: dict[str, Any]
    ) -> str:
        """Insert a scenario unless its id is there; the digest stored under its id."""
        session.execute(
            self._insert_ignoring_conflicts(ScenarioRow).values(
                id=scenario_id, digest=digest, body=body, created=_now()
            )
        )
        return session.scalars(
            select(ScenarioRow.digest).where(ScenarioRow.id == scenario_id)
        ).one()

    def _scenario_in(
        self, session: Session, scenario_id: str, scenario: Mapping[str, Any] | None
    ) -> None:
        """Make sure the scenario ``scenario_id`` is stored, within ``session``'s transaction:
        given its body, insert it (when missing); without it, require it
        (``UnknownScenarioError``). ``ValueError`` if the body's id is not ``scenario_id``."""
        if scenario is None:
            self._require_scenario(session, scenario_id)
            return
        body = _document(scenario, "a scenario")
        digest = sha256_hex(canonical_json(body))
        if id_from_digest(digest) != scenario_id:
            raise ValueError(f"the scenario given is not {scenario_id!r}")
        if self._insert_scenario(session, scenario_id, digest, body) != digest:
            raise RuntimeError(f"scenario id {scenario_id} is taken by another scenario")

    def scenario(self, scenario_id: str) -> dict[str, Any] | None:
        """The scenario stored as ``scenario_id``, or None."""
        if not valid_id(scenario_id):
            return None
        with Session(self._engine) as session:
            row = session.get(ScenarioRow, scenario_id)
            return None if row is None else row.body

    # -- results -----------------------------------------------------------------------

    def find_result(
        self, scenario_id: str, method: str, options: Mapping[str, Any], engine: str
    ) -> StoredResult | None:
        """The result stored for this scenario, method, options and engine version, or None."""
        if not valid_id(scenario_id):
            return None
        key = _result_key(scenario_id, method, options, engine)
        with Session(self._engine) as session:
            row = session.scalars(select(ResultRow).where(ResultRow.key == key)).one_or_none()
            return None if row is None else _stored_result(row)

    def save_result(
        self,
        scenario_id: str,
        method: str,
        options: Mapping[str, Any],
        engine: str,
        report: Mapping[str, Any],
        *,
        scenario: Mapping[str, Any] | None = None,
    ) -> StoredResult:
        """Store ``report`` as the result for its key, in one transaction; return the row.

        A key already stored (by an earlier or a concurrent request) is not written again:
        the stored row is returned. With ``scenario`` (the body of ``scenario_id``), the
        scenario is stored in the same transaction when missing; without it,
        ``UnknownScenarioError`` if the scenario is not stored;
        ``TypeError``/``ValueError`` if the options or report are not JSON, or the method or
        engine version are empty or too long (32 and 64 characters at most).
        """
        _label(method, "method", METHOD_LENGTH)
        _label(engine, "engine", ENGINE_LENGTH)
        options = _document(options, "options")
        body = _document(report, "a report")
        key = _result_key(scenario_id, method, options, engine)
        with self._writing() as session:
            self._scenario_in(session, scenario_id, scenario)
            session.execute(
                self._insert_ignoring_conflicts(ResultRow).values(
                    id=random_id(),
                    key=key,
                    scenario_id=scenario_id,
                    method=method,
                    options=options,
                    engine=engine,
                    report=body,
                    created=_now(),
                )
            )
            row = session.scalars(select(ResultRow).where(ResultRow.key == key)).one_or_none()
            if row is None:  # the random id was taken: 80 random bits, never seen
                raise RuntimeError("result id collision; save again")
            return _stored_result(row)

    def result(self, result_id: str) -> StoredResult | None:
        """The result stored as ``result_id``, or None."""
        if not valid_id(result_id):
            return None
        with Session(self._engine) as session:
            row = session.get(ResultRow, result_id)
            return None if row is None else _stored_result(row)

    # -- battle logs -------------------------------------------------------------------

    def save_log(
        self,
        scenario_id: str,
        seed: int | None,
        events: Sequence[Mapping[str, Any]],
        *,
        scenario: Mapping[str, Any] | None = None,
    ) -> str:
        """Store a battle's events and its seed; return the log's new (random) id.

        ``seed`` is None or an integer from 0 to 2**64 - 1 (``ValueError`` otherwise). With
        ``scenario`` (the body of ``scenario_id``), the scenario is stored in the same
        transaction when missing; without it, ``UnknownScenarioError`` if it is not stored.
        """
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
        ):
            raise ValueError(f"a seed is an integer from 0 to {MAX_SEED}, not {seed!r}")
        if isinstance(events, str | bytes) or not isinstance(events, Sequence):
            raise TypeError("events must be a sequence of mappings")
        body = [_document(item, "an event") for item in events]
        log_id = random_id()
        with self._writing() as session:
            self._scenario_in(session, scenario_id, scenario)
            session.add(
                LogRow(
                    id=log_id,
                    scenario_id=scenario_id,
                    seed=None if seed is None else str(seed),
                    events=body,
                    created=_now(),
                )
            )
        return log_id

    def log(self, log_id: str) -> StoredLog | None:
        """The battle log stored as ``log_id``, or None."""
        if not valid_id(log_id):
            return None
        with Session(self._engine) as session:
            row = session.get(LogRow, log_id)
            return None if row is None else _stored_log(row)
