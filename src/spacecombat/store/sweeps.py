"""Sweeps in the store (docs/sweeps.md): a sweep is saved when it starts (its spec and its
number of points), its progress as points finish, and its table once it is done."""

from __future__ import annotations

import math
from collections.abc import Callable
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


def start_sweep(store: Store, spec: SweepSpec, owner: str | None = None) -> str:
    """Save a sweep that starts now (solved by the server process ``owner``, if any); return
    its new id."""
    sweep_id = random_id()
    now = _now()
    with store._writing() as session:  # the store's write transaction
        session.add(
            SweepRow(
                id=sweep_id,
                digest=spec.digest(),
                spec=spec.to_json(),
                state="running",
                points=spec.count(),
                done=0,
                created=now,
                owner=owner,
                heartbeat=now if owner is not None else None,
                resumes=0,
                axes=[axis.path for axis in spec.axes],
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


# ---- sweeps left running by a server that stopped (ruling 25L-2) -------------------------------


#: times a sweep is resumed at most: one whose server stops every time it runs it (killed for
#: its memory, say) is then failed, not resumed for ever
MAX_RESUMES = 3


@dataclass(frozen=True)
class Claimed:
    """A running sweep a server process took over: its id and spec, its axes in their order
    (to be solved again from its first point)."""

    id: str
    spec: dict[str, Any]


def _utc(when: datetime | None) -> datetime | None:
    """A stored time, in UTC (SQLite gives it back without its zone)."""
    if when is None or when.tzinfo is not None:
        return when
    return when.replace(tzinfo=UTC)


def beat(store: Store, owner: str, sweep_ids: list[str]) -> None:
    """The server process ``owner`` is still solving these sweeps: their heartbeat is now."""
    if not sweep_ids:
        return
    now = _now()
    with store._writing() as session:
        for sweep_id in sweep_ids:
            row = session.get(SweepRow, sweep_id)
            if row is not None and row.owner == owner and row.state == "running":
                row.heartbeat = now


def release(store: Store, sweep_id: str, owner: str) -> None:
    """The server process ``owner`` stops (Ctrl-C) before the sweep is done: no process owns
    it any more, and the next server to start resumes it."""
    with store._writing() as session:
        row = session.get(SweepRow, sweep_id)
        if row is not None and row.owner == owner and row.state == "running":
            row.owner = None
            row.heartbeat = None


def claim_orphans(
    store: Store,
    owner: str,
    stale: float,
    alive: Callable[[str], bool],
    limit: int,
) -> list[Claimed]:
    """Take over, for the server process ``owner``, at most ``limit`` sweeps left running by
    a server process that stopped: one with no owner (released at a stop, or saved before
    owners were kept), one whose owner's heartbeat is older than ``stale`` seconds, or one
    whose owner ``alive`` says is gone (a process of this machine that is no more). Each is
    taken in its own transaction, only if its owner is still the one read (two servers
    starting at once take each sweep once); its progress starts again from 0 and its
    ``resumes`` grows by one; one resumed ``MAX_RESUMES`` times already is failed instead."""
    if limit <= 0:
        return []
    now = _now()
    with Session(store._engine) as session:
        found = session.query(SweepRow.id, SweepRow.owner, SweepRow.heartbeat).filter(
            SweepRow.state == "running"
        )
        candidates = [
            (sweep_id, old)
            for sweep_id, old, heartbeat in found
            if old is None
            or heartbeat is None
            or (now - (_utc(heartbeat) or now)).total_seconds() > stale
            or not alive(old)
        ]
    claimed: list[Claimed] = []
    for sweep_id, old in candidates:
        if len(claimed) >= limit:
            break
        with store._writing() as session:
            row = session.get(SweepRow, sweep_id)
            if row is None or row.state != "running" or row.owner != old or row.owner == owner:
                continue  # taken by another server meanwhile, or done
            if row.resumes >= MAX_RESUMES:
                row.state = "failed"
                row.note = (
                    f"the server solving it stopped {row.resumes + 1} times before it was done"
                )
                row.owner = row.heartbeat = None
                row.finished = now
                continue
            row.owner = owner
            row.heartbeat = now
            row.done = 0
            row.resumes += 1
            row.note = "resumed from its first point: the server solving it had stopped"
            spec = dict(row.spec)
            if row.axes is not None and isinstance(spec.get("axes"), dict):
                spec["axes"] = {path: spec["axes"][path] for path in row.axes}
            claimed.append(Claimed(row.id, spec))
    return claimed
