"""The HTTP API's sweeps (docs/sweeps.md, "Over HTTP"): start one, follow its progress, read its
table.

- ``POST /api/v1/sweeps`` ``{"spec": {...}}``: the spec is checked as the command line checks it
  (422 naming the field), within the server's limits: at most ``MAX_API_POINTS`` points and
  ``MAX_RUNNING`` sweeps running in one server process (503 with ``Retry-After`` beyond). The
  sweep is saved in the store and answered at once (202) with its id.
- ``GET /api/v1/sweeps/{id}``: its state (running, done, failed) and points done.
- ``GET /api/v1/sweeps/{id}/table``: its table, columns and rows, once done (409 before).

The points are solved in the server's own work pool (``web/work.py``), a few at a time, the
same tasks as on Dask (``sweeps/points.solve_batch``), so a sweep never takes the pool from
the other requests for long; progress is written to the store after each task, so any server
process sharing the store can answer for it.

**A sweep whose server stopped is resumed** (ruling 25L-2): the server process solving a sweep
is its *owner* in the store, and says every ``HEARTBEAT`` seconds that it still is. Each
server process (``Keeper``), when it starts and then every ``HEARTBEAT`` seconds, takes over
the running sweeps no live server solves (``store.sweeps.claim_orphans``): released by a server
that stopped on a signal, owned by a process of this machine that is gone (killed, say), or
whose owner has not said it is alive for ``LEASE`` seconds (a server on another machine), and
solves them again from their first point (a point's answer never depends on the scheduling:
the table is the one the first run would have made).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, JsonValue
from starlette.concurrency import run_in_threadpool

from spacecombat.core.errors import ScenarioError, SpacecombatError
from spacecombat.core.limits import one_line
from spacecombat.store.sweeps import (
    beat,
    claim_orphans,
    fail_sweep,
    finish_sweep,
    load_sweep,
    progress,
    release,
    start_sweep,
)
from spacecombat.sweeps.points import solve_batch
from spacecombat.sweeps.run import table
from spacecombat.sweeps.spec import SweepSpec, load_spec, point_seed
from spacecombat.web import jobs
from spacecombat.web.work import Saturated

if TYPE_CHECKING:
    from spacecombat.store import Store
    from spacecombat.web.work import WorkPool

log = logging.getLogger("spacecombat.web")

#: the most points a sweep started over HTTP may have
MAX_API_POINTS = 1_000
#: sweeps running at once in one server process
MAX_RUNNING = 1
#: points in one task of the work pool
PER_TASK = 10
#: seconds before a sweep's task is offered again to a full work pool
PAUSE = 0.5
#: seconds between two heartbeats of a server process's running sweeps (and two looks for
#: sweeps to resume)
HEARTBEAT = 5.0
#: seconds without a heartbeat after which a running sweep's owner counts as stopped
LEASE = 30.0
#: seconds the server's stop waits for its sweeps to be released
STOPPING = 2.0


class SweepRequest(BaseModel):
    """``POST /api/v1/sweeps``: a sweep spec (docs/sweeps.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    spec: JsonValue


def _check(spec: object) -> SweepSpec:
    checked = load_spec(spec)
    if checked.count() > MAX_API_POINTS:
        raise ScenarioError(
            "axes",
            f"{checked.count():,} points, more than the limit of {MAX_API_POINTS:,} a sweep "
            "started over HTTP (use spacecombat sweep for more)",
        )
    return checked


async def _run(store: Store, pool: WorkPool, sweep_id: str, spec: SweepSpec, owner: str) -> None:
    points = list(spec.points())
    rows: dict[int, dict[str, Any]] = {}
    options = spec.options()
    try:
        for start in range(0, len(points), PER_TASK):
            batch = [
                (n, spec.scenario_at(points[n]), point_seed(spec.seed, points[n]))
                for n in range(start, min(start + PER_TASK, len(points)))
            ]
            while True:
                try:
                    done = await pool.run(jobs.call, solve_batch, batch, options, True)
                    break
                except Saturated:
                    await asyncio.sleep(PAUSE)
            rows.update(done)
            await run_in_threadpool(progress, store, sweep_id, len(rows))
        frame = table(spec, points, rows)
        await run_in_threadpool(finish_sweep, store, sweep_id, frame)
    except (SpacecombatError, jobs.Refused) as exc:
        await run_in_threadpool(fail_sweep, store, sweep_id, one_line(str(exc)))
    except asyncio.CancelledError:
        # the server stops: the sweep is left to the next server to resume (ruling 25L-2)
        with contextlib.suppress(Exception):
            await run_in_threadpool(release, store, sweep_id, owner)
        raise
    except Exception:
        log.exception("sweep %s failed", sweep_id)
        await run_in_threadpool(fail_sweep, store, sweep_id, "internal error (it is logged)")


def process_owner() -> str:
    """This server process as a sweep's owner: its machine, process id and when it started
    (a process id used again later is another owner)."""
    return f"{socket.gethostname()} {os.getpid()} {_started(os.getpid())}"


def _started(pid: int) -> str:
    """When process ``pid`` started, in clock ticks since boot (``/proc``); "" when unknown."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def owner_alive(owner: str) -> bool:
    """Whether the owner of a sweep may still be running: False only for a process of this
    machine that is gone (none has its id, or one that started at another time); an owner on
    another machine is judged by its heartbeat (``LEASE``)."""
    host, _, rest = owner.partition(" ")
    pid, _, started = rest.partition(" ")
    if host != socket.gethostname() or not pid.isdigit() or not started:
        return True
    return _started(int(pid)) == started


class Keeper:
    """The sweeps a server process solves: started over HTTP or taken over from a server that
    stopped; their heartbeats, and their end when the server stops."""

    def __init__(self, the_store: Callable[[], Store], pool: WorkPool) -> None:
        self.the_store = the_store
        self.pool = pool
        self.owner = process_owner()
        self.running: dict[str, asyncio.Task[None]] = {}
        self._task: asyncio.Task[None] | None = None

    def run(self, sweep_id: str, spec: SweepSpec) -> None:
        """Solve the sweep ``sweep_id`` (saved as owned by this process) in the background."""
        task = asyncio.create_task(_run(self.the_store(), self.pool, sweep_id, spec, self.owner))
        self.running[sweep_id] = task
        task.add_done_callback(lambda _: self.running.pop(sweep_id, None))

    async def look_after(self) -> None:
        """One round: the heartbeat of this process's sweeps, then the sweeps to resume."""
        store = self.the_store()
        await run_in_threadpool(beat, store, self.owner, list(self.running))
        claimed = await run_in_threadpool(
            claim_orphans, store, self.owner, LEASE, owner_alive, MAX_RUNNING - len(self.running)
        )
        for sweep in claimed:
            try:
                spec = await run_in_threadpool(load_spec, sweep.spec)
            except SpacecombatError as exc:
                await run_in_threadpool(fail_sweep, store, sweep.id, one_line(str(exc)))
                continue
            log.info("resuming sweep %s (its server had stopped)", sweep.id)
            self.run(sweep.id, spec)

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self.look_after()
            except Exception as exc:  # the store unreachable: the next round tries again
                log.warning("sweeps' heartbeat: %s", one_line(str(exc))[:300])

    async def start(self) -> None:
        """At the server's start: the sweeps to resume, then a round every ``HEARTBEAT``."""
        try:
            await self.look_after()
        except Exception as exc:
            log.warning("sweeps to resume: %s", one_line(str(exc))[:300])
        self._task = asyncio.create_task(self._keep())

    async def stop(self) -> None:
        """At the server's stop: the heartbeats end, and the sweeps running are released for
        the next server to resume."""
        tasks = [t for t in (self._task, *self.running.values()) if t is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=STOPPING)
            if late:
                log.warning("%d sweep task(s) still stopping after %g s", len(late), STOPPING)


def router(
    keeper: Keeper,
    prefix: str,
    read: Callable[[Request, type[SweepRequest], int], Awaitable[SweepRequest]],
    limit: int,
    error: Callable[..., Exception],
) -> APIRouter:
    """The sweeps' routes, on the app's store and work pool (``keeper``'s); ``read``: the
    app's reading of a request body within ``limit`` bytes; ``error(status, message, field,
    headers)``: the app's error answer."""
    api = APIRouter(tags=["sweeps"])
    the_store = keeper.the_store

    # the body is read by ``read`` itself; its schema, for /docs
    body = {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": SweepRequest.model_json_schema()}},
        }
    }

    @api.post(f"{prefix}/sweeps", status_code=202, openapi_extra=body)
    async def start(request: Request) -> JSONResponse:
        """Start a sweep; its id, to follow it."""
        asked = await read(request, SweepRequest, limit)
        spec = await run_in_threadpool(jobs.call, _check, asked.spec)
        if len(keeper.running) >= MAX_RUNNING:
            raise error(
                503, "a sweep is running; retry when it is done", None, {"Retry-After": "10"}
            )
        store = the_store()
        sweep_id = await run_in_threadpool(start_sweep, store, spec, keeper.owner)
        keeper.run(sweep_id, spec)
        return JSONResponse(
            {"id": sweep_id, "state": "running", "points": spec.count(), "done": 0},
            status_code=202,
        )

    @api.get(f"{prefix}/sweeps/{{sweep_id}}")
    async def state(sweep_id: str) -> dict[str, Any]:
        """A sweep's state and progress."""
        found = await run_in_threadpool(load_sweep, the_store(), sweep_id[:200])
        if found is None:
            raise error(404, "no sweep has this id", "id")
        answer: dict[str, Any] = {
            "id": found.id,
            "state": found.state,
            "points": found.points,
            "done": found.done,
        }
        if found.note:
            answer["note"] = found.note
        return answer

    @api.get(f"{prefix}/sweeps/{{sweep_id}}/table")
    async def sweep_table(sweep_id: str) -> dict[str, Any]:
        """A finished sweep's table: its columns, and one row of values per point."""
        found = await run_in_threadpool(load_sweep, the_store(), sweep_id[:200])
        if found is None:
            raise error(404, "no sweep has this id", "id")
        if found.state != "done":
            raise error(409, f"the sweep is {found.state}, {found.done} of {found.points} done")
        return {"id": found.id, "columns": found.columns, "rows": found.rows}

    return api
