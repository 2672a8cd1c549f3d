"""The store's tables, as SQLAlchemy 2 declarative models.

The migrations in ``migrations/versions/`` create exactly these tables; a test compares them
(``alembic check``), so a change here needs a new migration.

Documents (a scenario, a result's options and report, a log's events) are JSON columns,
written with the store's canonical serializer (sorted keys, no whitespace, no NaN). Ids are
short lowercase base32 strings (see :mod:`spacecombat.store.ids`); timestamps are UTC.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, MetaData, String, Text, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from spacecombat.store.ids import ID_LENGTH

#: constraint names fixed by convention, so migrations can name them on every database
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: the table that records the schema's revision (named so another application's Alembic
#: history in the same database cannot be mistaken for ours)
VERSION_TABLE = "spacecombat_alembic_version"

#: the longest method name and engine version a result may be keyed by
METHOD_LENGTH = 32
ENGINE_LENGTH = 64
#: a seed is a decimal string: seeds go up to 2**64 - 1, past a signed 64-bit integer
SEED_LENGTH = 20


class Base(DeclarativeBase):
    """The store's declarative base: one metadata for all its tables."""

    metadata = MetaData(naming_convention=NAMING)


class ScenarioRow(Base):
    """A scenario, stored once by its canonical content hash."""

    __tablename__ = "scenarios"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    #: sha256 (hex) of the canonical JSON; the id is a prefix of it in base32
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """An odds report, keyed by scenario, method, options and engine version."""

    __tablename__ = "results"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    #: sha256 (hex) of the canonical JSON of [scenario id, method, options, engine]
    key: Mapped[str] = mapped_column(String(64), unique=True)
    scenario_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("scenarios.id"), index=True
    )
    method: Mapped[str] = mapped_column(String(METHOD_LENGTH))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    engine: Mapped[str] = mapped_column(String(ENGINE_LENGTH))
    report: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LogRow(Base):
    """A battle log: its events and the seed its dice were rolled from (if any)."""

    __tablename__ = "battle_logs"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    scenario_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("scenarios.id"), index=True
    )
    seed: Mapped[str | None] = mapped_column(String(SEED_LENGTH))
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SweepRow(Base):
    """A balance sweep (docs/sweeps.md): its spec, how far it got and, once done, its table
    (column names, and one list of values per point, in the points' order)."""

    __tablename__ = "sweeps"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    #: sha256 (hex) of the spec's canonical JSON (``SweepSpec.digest``)
    digest: Mapped[str] = mapped_column(String(64), index=True)
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: running, done or failed
    state: Mapped[str] = mapped_column(String(16))
    points: Mapped[int] = mapped_column(Integer)
    done: Mapped[int] = mapped_column(Integer)
    columns: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    rows: Mapped[list[list[Any]] | None] = mapped_column(JSON, nullable=True)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: the server process solving a running sweep (``web/sweeps.py``: host, process id and
    #: its start), and when it last said it still was; None: no server is (ruling 25L-2)
    owner: Mapped[str | None] = mapped_column(String(128), nullable=True)
    heartbeat: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: times the sweep was resumed after the server solving it stopped
    resumes: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    #: the paths of the spec's axes in their order (the spec's JSON is stored with its keys
    #: sorted; the order makes the table's columns and its rows)
    axes: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
