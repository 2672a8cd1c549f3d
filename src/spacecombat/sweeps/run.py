"""Running a sweep on Dask (docs/architecture.md, "Sweeps").

The points go out in tasks of points whose scenarios differ only in the players' units (the
cross-point cache's own key, ``chain_cache.battle_key``: a worker keeps the round tables and
ends they share, ``analysis/chain_cache.py``), to a ``distributed`` cluster: a
``LocalCluster`` of one single-threaded worker process per core, started and stopped here,
or a running cluster by its scheduler's address. The scheduler
retries the tasks of a worker that is lost. Each finished task's rows are appended to a journal
beside the output (``Journal``), so an interrupted sweep resumes with the points it has not
finished; the table is then built in the points' order, whatever order they were solved in.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spacecombat.analysis.chain_cache import battle_key
from spacecombat.core.errors import ScenarioError, SpacecombatError
from spacecombat.core.limits import cores, shown_path
from spacecombat.scenario.formats import read_document
from spacecombat.sweeps.points import LEADING, TRAILING, solve_batch
from spacecombat.sweeps.spec import SweepSpec, load_spec, point_seed

if TYPE_CHECKING:
    import pandas as pd
    from distributed import Client

#: the environment variable naming a running cluster's scheduler (``--scheduler``)
SCHEDULER_VARIABLE = "SPACECOMBAT_DASK_SCHEDULER"
#: the most points in one task (fewer when there are few points a worker)
MOST_PER_TASK = 100
#: tasks a worker at least, so that the work spreads and a lost worker loses little
TASKS_A_WORKER = 8

#: the Dask settings of a local cluster made here: its workers take no samples of their stacks
#: for the dashboard's profile (a sweep's user never opens it), and its processes check their
#: event loops' lag and the system's use every 0.5 s and 5 s instead of 20 ms and 0.5 s; CPU
#: left to the points (docs/benchmarks.md, 26G). A running cluster keeps its own settings.
QUIET_CLUSTER = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.interval": "5s",
}

Progress = Callable[[int, int], None]


def as_spec(spec: SweepSpec | Mapping[str, Any] | str | os.PathLike[str]) -> SweepSpec:
    """A checked spec from a spec, a decoded mapping or a YAML/JSON file's path."""
    if isinstance(spec, SweepSpec):
        return spec
    if isinstance(spec, Mapping):
        return load_spec(dict(spec))
    return load_spec(read_document(os.fspath(spec)))


def sweep(
    spec: SweepSpec | Mapping[str, Any] | str | os.PathLike[str],
    client: Client | None = None,
    *,
    journal: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    cache: bool = True,
) -> pd.DataFrame:
    """The table of a sweep, one row per point in the spec's order (docs/sweeps.md): the axes'
    values, then the odds columns. ``client``: a ``distributed.Client`` to run on (default: a
    local cluster of ``workers`` processes, one per core, started and stopped here; or the
    cluster named by ``SPACECOMBAT_DASK_SCHEDULER``). ``journal``: a directory keeping finished
    points, so that calling again after an interruption solves only the rest. ``cache``: share
    per-player round tables between the points a worker solves."""
    checked = as_spec(spec)
    book = Journal(Path(journal), checked) if journal is not None else None
    rows = dict(book.load()) if book is not None else {}
    points = list(checked.points())
    todo = [n for n in range(len(points)) if n not in rows]
    if todo:
        owned = client is None
        if owned:
            client = connect(None, workers)
        assert client is not None
        try:
            for number, row in _solve(checked, points, todo, client, cache, progress, len(rows)):
                rows[number] = row
                if book is not None:
                    book.add(number, row)
        finally:
            if book is not None:
                book.close()
            if owned:
                disconnect(client)
    frame = table(checked, points, rows)
    frame.attrs["kept"] = len(points) - len(todo)
    return frame


def connect(address: str | None, workers: int | None) -> Client:
    """A client of the cluster at ``address`` (else ``SPACECOMBAT_DASK_SCHEDULER``), or of a new
    local cluster of ``workers`` single-threaded processes (default: one per core)."""
    import logging

    import dask
    from distributed import Client, LocalCluster

    address = address or os.environ.get(SCHEDULER_VARIABLE) or None
    if address is not None:
        try:
            return Client(address, timeout=10)  # type: ignore[no-untyped-call]
        except OSError as exc:
            raise ScenarioError(
                "--scheduler", f"no Dask scheduler answers at {address}: {exc}"
            ) from exc
    with dask.config.set(QUIET_CLUSTER):
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers or cores(),
            threads_per_worker=1,
            processes=True,
            # no dashboard; the scheduler's own HTTP server on a free port (its default, 8787,
            # may be taken by another cluster on the machine)
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        )
        return Client(cluster)  # type: ignore[no-untyped-call]


def disconnect(client: Client) -> None:
    """Close ``client``, and its local cluster if it made one."""
    cluster = client.cluster
    client.close()  # type: ignore[no-untyped-call]
    if cluster is not None:
        cluster.close()


def _solve(
    spec: SweepSpec,
    points: list[tuple[Any, ...]],
    todo: list[int],
    client: Client,
    cache: bool,
    progress: Progress | None,
    done: int,
) -> Iterable[tuple[int, dict[str, Any]]]:
    from distributed import as_completed

    size = max(1, len(client.scheduler_info().get("workers", {})) or cores())
    per_task = max(1, min(MOST_PER_TASK, len(todo) // (size * TASKS_A_WORKER) or 1))
    options = spec.options()
    futures = [
        client.submit(solve_batch, batch, options, cache, pure=False)
        for batch in tasks(spec, points, todo, per_task)
    ]
    total = len(points)
    if progress is not None:
        progress(done, total)
    try:
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            for number, row in future.result():
                done += 1
                yield number, row
            if progress is not None:
                progress(done, total)
    finally:
        client.cancel(futures)  # type: ignore[no-untyped-call]


Task = list[tuple[int, dict[str, Any], int]]


def tasks(
    spec: SweepSpec, points: list[tuple[Any, ...]], todo: list[int], per_task: int
) -> list[Task]:
    """The points of ``todo`` as tasks of at most ``per_task`` points (number, scenario,
    seed): the points whose scenarios differ only in the players' units together (grouped by
    ``chain_cache.battle_key``, the key under which a worker's cache shares round tables and
    ends between them: derived from the scenario, never written by hand), each group cut into
    tasks of nearly equal size, in the spec's order within a group and the order of each
    group's first point. Only where a point is solved depends on it, never its answer
    (``tests/sweep/test_cache.py``: cached answers equal uncached ones)."""
    groups: dict[str, list[tuple[int, dict[str, Any], int]]] = {}
    for n in todo:
        scenario = spec.scenario_at(points[n])
        point = (n, scenario, point_seed(spec.seed, points[n]))
        groups.setdefault(battle_key(scenario), []).append(point)
    out: list[Task] = []
    for group in groups.values():
        count = -(-len(group) // per_task)  # tasks for the group, rounded up
        size, extra = divmod(len(group), count)
        start = 0
        for k in range(count):
            end = start + size + (1 if k < extra else 0)
            out.append(group[start:end])
            start = end
    return out


def table(
    spec: SweepSpec, points: list[tuple[Any, ...]], rows: Mapping[int, dict[str, Any]]
) -> pd.DataFrame:
    """The rows in the points' order: the axes' columns (a list or mapping value written as
    JSON text), then the odds columns (``points.row_of``)."""
    import pandas as pd

    middle: list[str] = []
    for number in range(len(points)):
        for name in rows[number]:
            if name not in LEADING and name not in TRAILING and name not in middle:
                middle.append(name)
    holds = [name for name in middle if name.startswith("holds_")]
    others = [name for name in middle if name not in holds]
    columns = [*LEADING, *holds, *others, *TRAILING]
    records = []
    for number, values in enumerate(points):
        record: dict[str, Any] = {
            path: _cell(value) for path, value in zip(spec.paths, values, strict=True)
        }
        row = rows[number]
        record.update({name: row.get(name) for name in columns})
        records.append(record)
    frame = pd.DataFrame.from_records(records, columns=[*spec.paths, *columns])
    for name in columns:
        if name not in ("method", "note"):
            frame[name] = frame[name].astype("float64")
    return frame


def _cell(value: Any) -> Any:
    if isinstance(value, list | dict):
        return json.dumps(value, separators=(", ", ": "))
    return value


class JournalFailed(SpacecombatError):
    """The journal of finished points cannot be read or written (an I/O error: exit 74)."""


class Journal:
    """Finished points kept in a directory beside the output: ``spec.json`` (what the sweep
    is: a resumed run must have the same, else the journal is started again) and
    ``rows.jsonl``, one line per point, flushed to the disk after each task. A line cut short
    by a crash is ignored (its point is solved again)."""

    def __init__(self, directory: Path, spec: SweepSpec) -> None:
        self.directory = directory
        self.spec = spec
        self._handle: Any = None
        self.restarted = False

    @property
    def rows_path(self) -> Path:
        return self.directory / "rows.jsonl"

    def load(self) -> Iterable[tuple[int, dict[str, Any]]]:
        found: dict[int, dict[str, Any]] = {}
        digest = self.spec.digest()
        stamp = self.directory / "spec.json"
        try:
            if self.directory.exists():
                known = json.loads(stamp.read_text()) if stamp.exists() else {}
                if known.get("digest") != digest:
                    shutil.rmtree(self.directory)
                    self.restarted = True
            if self.rows_path.exists():
                for line in self.rows_path.read_text(encoding="utf-8").splitlines():
                    try:
                        number, row = json.loads(line)
                    except ValueError:
                        continue  # a line cut short
                    if isinstance(number, int) and isinstance(row, dict):
                        found[number] = row
            self.directory.mkdir(parents=True, exist_ok=True)
            stamp.write_text(json.dumps({"digest": digest, "spec": self.spec.to_json()}))
            self._handle = self.rows_path.open("a", encoding="utf-8")
        except OSError as exc:
            raise JournalFailed(
                f"cannot keep the sweep's finished points in {shown_path(str(self.directory))}: "
                f"{exc.strerror}"
            ) from exc
        return found.items()

    def add(self, number: int, row: dict[str, Any]) -> None:
        self._handle.write(json.dumps([number, row]) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def remove(self) -> None:
        self.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def journal_for(out: Path) -> Path:
    """The journal directory of an output file: ``OUT.partial`` beside it."""
    return out.with_name(out.name + ".partial")


class TerminalProgress:
    """Points done, the rate and the time left, on one line of standard error."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.first: int | None = None

    def __call__(self, done: int, total: int) -> None:
        if self.first is None:
            self.first = done
        spent = time.perf_counter() - self.started
        rate = (done - self.first) / spent if spent > 0 else 0.0
        left = f", {(total - done) / rate:,.0f} s left" if rate > 0 else ""
        end = "\n" if done >= total else ""
        sys.stderr.write(f"\rsweep: {done:,}/{total:,} points, {rate:,.1f}/s{left}   {end}")
        sys.stderr.flush()
