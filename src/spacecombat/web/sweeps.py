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
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, JsonValue
from starlette.concurrency import run_in_threadpool

from spacecombat.core.errors import ScenarioError, SpacecombatError
from spacecombat.core.limits import one_line
from spacecombat.store.sweeps import fail_sweep, finish_sweep, load_sweep, progress, start_sweep
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


async def _run(store: Store, pool: WorkPool, sweep_id: str, spec: SweepSpec) -> None:
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
        await run_in_threadpool(fail_sweep, store, sweep_id, "the server stopped")
        raise
    except Exception:
        log.exception("sweep %s failed", sweep_id)
        await run_in_threadpool(fail_sweep, store, sweep_id, "internal error (it is logged)")


def router(
    the_store: Callable[[], Store],
    pool: WorkPool,
    prefix: str,
    read: Callable[[Request, type[SweepRequest], int], Awaitable[SweepRequest]],
    limit: int,
    error: Callable[..., Exception],
) -> APIRouter:
    """The sweeps' routes, on the app's store and work pool; ``read``: the app's reading of a
    request body within ``limit`` bytes; ``error(status, message, field, headers)``: the
    app's error answer."""
    api = APIRouter(tags=["sweeps"])
    running: set[asyncio.Task[None]] = set()

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
        if len(running) >= MAX_RUNNING:
            raise error(
                503, "a sweep is running; retry when it is done", None, {"Retry-After": "10"}
            )
        store = the_store()
        sweep_id = await run_in_threadpool(start_sweep, store, spec)
        task = asyncio.create_task(_run(store, pool, sweep_id, spec))
        running.add(task)
        task.add_done_callback(running.discard)
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
