"""Sweeps in the store (docs/sweeps.md): a sweep is saved when it starts (its spec and its
number of points), its progress as points finish, and its table once it is done."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from spacecombat.store.ids import canonical_json, random_id, valid_id
from spacecombat.store.models import SweepRow

if TYPE_CHECKING:
    import pandas as pd

    from spacecombat.store import Store
    from spacecombat.sweeps.spec import SweepSpec


@dataclass(frozen=True)
class StoredSweep:
    """A sweep as the store has it."""

    id: str
    spec: dict[str, Any]
    state: str
    points: int
    done: int
    columns: list[str] | None
    rows: list[list[Any]] | None
    note: str | None


def _now() -> datetime:
    return datetime.now(UTC)


def _cells(frame: pd.DataFrame) -> list[list[Any]]:
    """The table's values as JSON allows them: a missing number is ``None``."""
    rows = []
    for record in frame.itertuples(index=False):
        rows.append([None if isinstance(v, float) and math.isnan(v) else _plain(v) for v in record])
    canonical_json(rows)  # TypeError / ValueError for what JSON cannot hold
    return rows


def _plain(value: Any) -> Any:
    item = getattr(value, "item", None)  # a numpy scalar
    return item() if callable(item) else value


def start_sweep(store: Store, spec: SweepSpec) -> str:
    """Save a sweep that starts now; return its new id."""
    sweep_id = random_id()
    with store._writing() as session:  # the store's write transaction
        session.add(
            SweepRow(
                id=sweep_id,
                digest=spec.digest(),
                spec=spec.to_json(),
                state="running",
                points=spec.count(),
                done=0,
                created=_now(),
            )
        )
    return sweep_id


def progress(store: Store, sweep_id: str, done: int) -> None:
    """Record that ``done`` points of the sweep are finished."""
    with store._writing() as session:
        row = session.get(SweepRow, sweep_id)
        if row is not None:
            row.done = done


def finish_sweep(store: Store, sweep_id: str, frame: pd.DataFrame) -> None:
    """Save the sweep's table; the sweep is done."""
    rows = _cells(frame)
    with store._writing() as session:
        row = session.get(SweepRow, sweep_id)
        if row is not None:
            row.columns = [str(c) for c in frame.columns]
            row.rows = rows
            row.done = len(rows)
            row.state = "done"
            row.finished = _now()


def fail_sweep(store: Store, sweep_id: str, note: str) -> None:
    """The sweep stopped before its end, for the reason ``note``."""
    with store._writing() as session:
        row = session.get(SweepRow, sweep_id)
        if row is not None:
            row.state = "failed"
            row.note = note
            row.finished = _now()


def save_sweep(store: Store, spec: SweepSpec, frame: pd.DataFrame) -> str:
    """Save a finished sweep and its table (``spacecombat sweep --db``); return its id."""
    sweep_id = start_sweep(store, spec)
    finish_sweep(store, sweep_id, frame)
    return sweep_id


def load_sweep(store: Store, sweep_id: str) -> StoredSweep | None:
    """The sweep stored as ``sweep_id``, or None."""
    if not valid_id(sweep_id):
        return None
    with Session(store._engine) as session:
        row = session.get(SweepRow, sweep_id)
        if row is None:
            return None
        return StoredSweep(
            id=row.id,
            spec=row.spec,
            state=row.state,
            points=row.points,
            done=row.done,
            columns=row.columns,
            rows=row.rows,
            note=row.note,
        )
