"""The HTTP API (``/api/v1``, OpenAPI at ``/docs``) and the page at ``/``.

Every body must be ``application/json`` (415 otherwise) and is read within a limit (413 beyond
it), then decoded off the event loop (a thread; a replay's log, up to 20 MB, in a worker
process) as strictly as the command line reads a JSON file (``scenario/formats.load_json``:
depth, keys written twice, NaN; 400 when it is not JSON), and checked against its request
model, unknown fields refused (422). A bad scenario gets 422 with the field's path and the
message the command line prints for it. Every error, of any route or none, is a JSON object
``{"error": {"field"?, "message"}}``; an unexpected one is logged and answered with a 500
that says nothing of the server's insides.

Issue 25, a server no request can tie up (docs/architecture.md, "The server"):

- **a time limit per request** (``time_limit``, ``spacecombat serve --time-limit``): the work
  of a request runs in the bounded pool of worker processes (``work.WorkPool``) with a
  deadline; odds answer within it (the exact engine, then Monte Carlo to the precision the
  time allows, saying so) or 422 naming the field and how much fits;
- **shedding at once**: at most ``max_requests`` API requests in the server at a time, and a
  call goes to the pool only when its queue clears soon: the others get 503 with
  ``Retry-After`` at once;
- **abandoned work is stopped**: a request whose client left, or whose time is over, has its
  call cancelled and its worker freed; identical odds requests in flight share one call;
- **the store unreachable** (or not answering within ``STORE_WAIT``): 503 with
  ``Retry-After``; odds and battles are still computed and answered, marked not stored.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cache, partial
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Annotated, Any, Final, Literal, TypeVar

import anyio
import anyio.to_thread
import sqlalchemy.exc
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    StrictFloat,
    StrictInt,
)
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Receive, Scope, Send

from spacecombat.core.limits import (
    ECHO,
    MAX_CHANCE_STATES,
    MAX_LOG_BYTES,
    MAX_PRECISION,
    MAX_ROUNDS,
    MAX_SCENARIO_BYTES,
    MAX_SEED,
    MAX_TRIALS,
    SERVER_MAX_REQUESTS,
    SERVER_TIME_LIMIT,
    one_line,
)
from spacecombat.store import Store
from spacecombat.web import jobs, sweeps
from spacecombat.web.catalogue import catalogue
from spacecombat.web.work import QUEUE_WAIT, RETRY_AFTER, Job, Saturated, Stopped, WorkPool

log = logging.getLogger("spacecombat.web")

PREFIX = "/api/v1"
#: bytes in a request body that carries a scenario: the scenario file's limit, and room for
#: the request's other fields
MAX_BODY_BYTES = MAX_SCENARIO_BYTES + 4_096
#: bytes in a replay request: the log's limit, and room for the request's own field
MAX_LOG_BODY_BYTES = MAX_LOG_BYTES + 4_096
#: the folder of the page (its files are another part's; mounted when present)
STATIC = Path(__file__).with_name("static")


# ---- requests ---------------------------------------------------------------------------------


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class OddsRequest(_Request):
    """The odds of a battle, as ``spacecombat odds --format json`` gives them."""

    scenario: JsonValue = Field(description="a scenario, as in a scenario file (README)")
    method: Literal["exact", "montecarlo"] = "exact"
    trials: Annotated[StrictInt, Field(ge=1, le=MAX_TRIALS)] | None = Field(
        default=None,
        description="Monte Carlo battles at most (default: enough for the precision at any "
        "probability); with precision 0, exactly this many (default 20,000)",
    )
    precision: Annotated[StrictFloat, Field(ge=0, le=MAX_PRECISION)] | None = Field(
        default=None,
        description="Monte Carlo stops when every headline probability's 95% interval is "
        "within this of it (default 0.005); 0: exactly `trials` battles",
    )
    fractions: StrictBool = Field(
        default=False, description="also the headline probabilities as exact fractions"
    )
    budget: Annotated[StrictInt, Field(ge=1, le=MAX_CHANCE_STATES)] | None = Field(
        default=None, description="the exact engine's battle states (default 3,000)"
    )
    seed: Annotated[StrictInt, Field(ge=0, le=MAX_SEED)] | None = Field(
        default=None, description="Monte Carlo seed (default 0)"
    )
    rounds: Annotated[StrictInt, Field(ge=0, le=MAX_ROUNDS)] | None = Field(
        default=None, description="also the battle's state after N rounds (exact only)"
    )


class ResolveRequest(_Request):
    """One battle played from a seed (``null``: a fresh one, or EC4X's own)."""

    scenario: JsonValue
    seed: Annotated[StrictInt, Field(ge=0, le=MAX_SEED)] | None = None


class ReplayRequest(_Request):
    """An event log: a list of event objects, or JSON Lines text."""

    log: JsonValue = Field(
        description="the events of a log (a list of objects), or the log as JSON Lines text"
    )


class ScenarioRequest(_Request):
    """A scenario to store, to be shared by its id."""

    scenario: JsonValue


def _openapi_body(model: type[BaseModel]) -> dict[str, Any]:
    """The request body's schema for ``/docs`` (the body is read by ``_read`` itself)."""
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }


# ---- errors -----------------------------------------------------------------------------------


class ApiError(Exception):
    """An answer other than success: ``status``, and the field and message of the error."""

    def __init__(
        self,
        status: int,
        message: str,
        field: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.field = field
        self.headers = dict(headers or {})


def _error(
    status: int, message: str, field: str | None = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    body: dict[str, Any] = {"message": one_line(message)}
    if field is not None:
        body = {"field": field, **body}
    return JSONResponse({"error": body}, status_code=status, headers=dict(headers or {}))


_loc = jobs.field_path


# ---- reading a request ------------------------------------------------------------------------


ModelT = TypeVar("ModelT", bound=BaseModel)


def _json_media_type(request: Request) -> None:
    """A body must say it is JSON (``application/json``, or a ``+json`` type): 415 otherwise."""
    declared = request.headers.get("content-type", "")
    media = declared.split(";", 1)[0].strip().lower()
    if media != "application/json" and not (
        media.startswith("application/") and media.endswith("+json")
    ):
        shown_type = one_line(declared)[:ECHO] or "none"
        raise ApiError(
            415, f"the request body must be application/json (its content-type: {shown_type})"
        )


async def _body(request: Request, limit: int) -> bytes:
    """The request's body, JSON by its content-type (415), within ``limit`` bytes (413)."""
    _json_media_type(request)
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"the request body is larger than the limit of {limit:,} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, f"the request body is larger than the limit of {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _read(request: Request, model: type[ModelT], limit: int) -> ModelT:
    """The request's body (``_body``) as strict JSON (400) that ``model`` accepts (422, naming
    the field), decoded and checked in a thread, off the event loop."""
    raw = await _body(request, limit)
    return await run_in_threadpool(jobs.parse_body, raw, model)


# ---- the engine's version ---------------------------------------------------------------------


@cache
def engine_version() -> str:
    """The version of the engine that computed a stored result: the package's version and a
    hash of the rules data and the engine's code (a change to either makes stored results of
    the old engine no longer match)."""
    try:
        package = version("spacecombat")
    except PackageNotFoundError:  # run from a source tree that is not installed
        package = "unknown"
    digest = hashlib.sha256()
    root = resources.files("spacecombat")
    parts = ("core", "analysis", "rulesets", "scenario", "resolver.py", "replayer.py")
    for part in parts:
        for path in sorted(_files(Path(str(root.joinpath(part))))):
            digest.update(str(path.relative_to(Path(str(root)))).encode())
            digest.update(path.read_bytes())
    return f"{package}+{digest.hexdigest()[:12]}"


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return [p for p in path.rglob("*") if p.suffix in (".py", ".toml") and p.is_file()]


# ---- the app ----------------------------------------------------------------------------------


#: the environment variable giving the work pool's processes to :func:`app_from_environment`
POOL_WORKERS_ENV: Final = "SPACECOMBAT_POOL_WORKERS"
#: the environment variable giving the time limit (seconds) to :func:`app_from_environment`
TIME_LIMIT_ENV: Final = "SPACECOMBAT_TIME_LIMIT"
#: the environment variable giving ``max_requests`` to :func:`app_from_environment`
MAX_REQUESTS_ENV: Final = "SPACECOMBAT_MAX_REQUESTS"
#: seconds a request's work may take, by default (``spacecombat serve --time-limit``; ruling
#: 25S-1): the exact engine's own budgets end a battle it cannot solve within about 5 s
#: (docs/limits.md), and Monte Carlo then has the rest
TIME_LIMIT = SERVER_TIME_LIMIT
#: API requests in one server process at once, by default (``serve --max-requests``); more
#: get 503 at once (with clients that never pause, a request's wait is the requests in the
#: server divided by the throughput, ~300 a second on two cores: docs/benchmarks.md)
MAX_REQUESTS = SERVER_MAX_REQUESTS
#: seconds the store may take to answer one call before it counts as unreachable (503)
STORE_WAIT = 3.0
#: seconds past a request's deadline its store calls may take (the time limit + 1 s is the
#: longest any request may take: issue 25), but never less than ``STORE_LEAST``
STORE_SLACK = 0.8
STORE_LEAST = 0.5
#: seconds a client is asked to wait when the store cannot be reached (``Retry-After``)
STORE_RETRY_AFTER = 5
#: seconds between two checks that the client of a request being computed is still there
DISCONNECT_POLL = 0.2
#: what the store's errors are when it cannot be reached (connection refused or lost, the
#: database locked or unreadable); a database error of any other kind is a bug (500)
UNREACHABLE: tuple[type[Exception], ...] = (
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    sqlalchemy.exc.TimeoutError,
    TimeoutError,
)


class StoreUnreachable(Exception):
    """The store did not answer (``UNREACHABLE``, or not within ``STORE_WAIT``)."""


class ClientLeft(Exception):
    """The client of a request went away while its work was being done."""


def app_from_environment() -> FastAPI:
    """The app of one of several server processes (``spacecombat serve --processes N``): its
    store is ``SPACECOMBAT_DB``'s, its work pool has ``SPACECOMBAT_POOL_WORKERS`` processes
    (default: one per core), its time limit is ``SPACECOMBAT_TIME_LIMIT`` seconds and its
    ``max_requests`` ``SPACECOMBAT_MAX_REQUESTS``."""
    workers = os.environ.get(POOL_WORKERS_ENV, "")
    limit = os.environ.get(TIME_LIMIT_ENV, "")
    most = os.environ.get(MAX_REQUESTS_ENV, "")
    return create_app(
        workers=int(workers) if workers.isdigit() else None,
        time_limit=float(limit) if limit else TIME_LIMIT,
        max_requests=int(most) if most.isdigit() else MAX_REQUESTS,
    )


class Admission:
    """At most ``limit`` API requests (``/api/``) in the app at once: one more is answered 503
    with ``Retry-After`` at once, before its body is read (an ASGI middleware)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.active = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope["path"]).startswith("/api/"):
            await self.app(scope, receive, send)
            return
        if self.active >= self.limit:
            busy = _error(
                503,
                f"the server is busy; retry after {RETRY_AFTER} second(s)",
                headers={"Retry-After": str(RETRY_AFTER)},
            )
            await busy(scope, receive, send)
            return
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active -= 1


@dataclass
class _Shared:
    """A call in the pool that identical requests in flight wait for together."""

    job: Job
    result: asyncio.Future[Any]
    waiters: int = 0


def create_app(
    store: Store | None = None,
    *,
    workers: int | None = None,
    capacity: int | None = None,
    time_limit: float = TIME_LIMIT,
    max_requests: int = MAX_REQUESTS,
    queue_wait: float | None = QUEUE_WAIT,
) -> FastAPI:
    """The API (and the page, when its folder is there). ``store``: where scenarios, results
    and logs are kept (default: ``Store()``: ``SPACECOMBAT_DB``, else SQLite in the user's
    data folder), opened at start-up and closed at shutdown when made here; ``workers``,
    ``capacity`` and ``queue_wait``: the work pool's processes (default: one per core), the
    most calls in it at once (default: sixteen per worker) and the longest its queue may be
    expected to take (``work.WorkPool``); ``time_limit``: the seconds a request's work may
    take; ``max_requests``: the API requests in the app at once (``Admission``)."""
    owned = store is None
    engine = engine_version()  # read once, now, rather than in the first request
    state: dict[str, Any] = {"store": store}
    pool = WorkPool(workers, capacity, queue_wait)
    shared: dict[str, _Shared] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool.start()
        if state["store"] is None:
            state["store"] = await run_in_threadpool(Store)
        await keeper.start()  # sweeps left running by a server that stopped: resumed
        try:
            yield
        finally:
            await keeper.stop()
            await run_in_threadpool(pool.close)
            if owned and state["store"] is not None:
                state["store"].close()

    app = FastAPI(
        title="spacecombat",
        summary="Space 4X battles (TI4, TI3, EC4X) played out and their exact odds.",
        lifespan=lifespan,
        # the documentation page is served below with the package's own copy of Swagger UI
        # (FastAPI's default loads it from a CDN, and the API must work offline)
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(Admission, limit=max_requests)

    @app.get("/docs", include_in_schema=False)
    async def documentation() -> HTMLResponse:
        """The API's documentation (OpenAPI, at /openapi.json), read with Swagger UI."""
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title="spacecombat API",
            swagger_js_url="/vendor/swagger-ui-bundle.js",
            swagger_css_url="/vendor/swagger-ui.css",
            swagger_favicon_url="data:,",  # no icon: nothing fetched from elsewhere
        )

    app.state.pool = pool
    app.state.time_limit = time_limit

    def the_store() -> Store:
        found: Store | None = state["store"]
        if found is None:
            raise RuntimeError("the store is opened at start-up (run the app with its lifespan)")
        return found

    async def in_store(call: Callable[..., Any], *args: Any, deadline: float | None = None) -> Any:
        """``call(*args)`` on the store, in a thread, within ``STORE_WAIT`` seconds, and
        within ``STORE_SLACK`` of the request's ``deadline`` when it has one (at least
        ``STORE_LEAST``) (``StoreUnreachable`` otherwise, or when it cannot be reached; the
        thread is left to end by itself)."""
        wait = STORE_WAIT
        if deadline is not None:
            wait = min(wait, max(STORE_LEAST, deadline + STORE_SLACK - time.monotonic()))
        try:
            with anyio.fail_after(wait):
                return await anyio.to_thread.run_sync(partial(call, *args), abandon_on_cancel=True)
        except UNREACHABLE as exc:
            log.warning("the store is unreachable: %s", one_line(str(exc))[:300])
            raise StoreUnreachable from None

    async def computed(
        request: Request, key: str | None, deadline: float, fn: Callable[..., Any], *args: Any
    ) -> Any:
        """``fn(*args)`` in the pool, to end by ``deadline``; shared by the requests in flight
        with the same ``key`` (None: not shared). The call is cancelled, and its worker freed,
        when the last request waiting for it has gone (its client left: ``ClientLeft``)."""
        entry = shared.get(key) if key is not None else None
        if entry is None:
            job = pool.job(deadline, jobs.call, fn, *args)
            entry = _Shared(job, asyncio.ensure_future(pool.wait(job)))
            entry.result.add_done_callback(_retrieved)
            if key is not None:
                shared[key] = entry
                entry.result.add_done_callback(
                    lambda _: shared.pop(key) if shared.get(key) is entry else None
                )
        entry.waiters += 1
        queued = time.monotonic()
        try:
            while True:
                done, _ = await asyncio.wait({entry.result}, timeout=DISCONNECT_POLL)
                if done:
                    return entry.result.result()
                if await request.is_disconnected():
                    raise ClientLeft
                waited = time.monotonic() - queued
                if queue_wait is not None and waited > queue_wait and pool.waiting(entry.job):
                    # still no worker (they are held by long calls): shed it now rather than
                    # answer it late (ruling 25S-2)
                    raise Saturated(
                        RETRY_AFTER,
                        f"no worker was free within {queue_wait:g} s (they hold long work); "
                        f"retry after {RETRY_AFTER} second(s)",
                    )
        finally:
            entry.waiters -= 1
            if entry.waiters == 0 and not entry.result.done():
                entry.job.cancel()
                if key is not None and shared.get(key) is entry:
                    del shared[key]

    async def checked(scenario: object) -> dict[str, Any]:
        found: dict[str, Any] = await run_in_threadpool(jobs.call, jobs.canonical, scenario)
        return found

    def stopped(exc: Stopped, field: str | None, what: str) -> ApiError:
        """The answer to a call the pool stopped: its time was over (422, naming ``field``:
        ``what`` does not fit the time limit; with no field, the server was slower than it
        reckoned: 503) or it waited past it (503)."""
        if exc.why == "time" and field is not None:
            return ApiError(
                422, f"{what} does not fit in the server's time limit of {time_limit:g} s", field
            )
        return ApiError(
            503,
            f"the server is busy; retry after {RETRY_AFTER} second(s)",
            headers={"Retry-After": str(RETRY_AFTER)},
        )

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message, exc.field, exc.headers)

    @app.exception_handler(jobs.BadBody)
    async def bad_body(request: Request, exc: jobs.BadBody) -> JSONResponse:
        return _error(exc.status, exc.message, exc.field)

    @app.exception_handler(jobs.Refused)
    async def refused(request: Request, exc: jobs.Refused) -> JSONResponse:
        return _error(422, exc.message, exc.field)

    @app.exception_handler(Saturated)
    async def saturated(request: Request, exc: Saturated) -> JSONResponse:
        return _error(503, str(exc), headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(StoreUnreachable)
    async def unreachable(request: Request, exc: StoreUnreachable) -> JSONResponse:
        return _error(
            503,
            f"the store cannot be reached; retry after {STORE_RETRY_AFTER} second(s)",
            headers={"Retry-After": str(STORE_RETRY_AFTER)},
        )

    @app.exception_handler(ClientLeft)
    async def client_left(request: Request, exc: ClientLeft) -> JSONResponse:
        # no one reads it: 499 is the status servers log for a client that closed first
        return _error(499, "the client closed the request before it was answered")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail), headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        return _error(422, str(first["msg"]), _loc(tuple(first["loc"])))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error answering %s %s", request.method, request.url.path)
        return _error(500, "internal error (it is logged; please report it)")

    # balance sweeps: their own routes (web/sweeps.py), before any route that takes the rest
    keeper = sweeps.Keeper(the_store, pool)
    app.include_router(sweeps.router(keeper, PREFIX, _read, MAX_BODY_BYTES, ApiError))

    @app.post(f"{PREFIX}/odds", openapi_extra=_openapi_body(OddsRequest), tags=["battles"])
    async def odds(request: Request) -> dict[str, Any]:
        """The odds of a battle: the report of ``spacecombat odds --format json``, from the
        store when the same request was answered before by this engine, computed within the
        server's time limit (``note`` says when Monte Carlo stopped at it). With the store
        unreachable the odds are still answered, ``stored`` false."""
        deadline = time.monotonic() + time_limit
        asked: OddsRequest = await _read(request, OddsRequest, MAX_BODY_BYTES)
        scenario = await checked(asked.scenario)
        store = the_store()
        # the scenario is written with its result, in one transaction, and only when the
        # result is new: a repeated request only reads
        scenario_id = store.scenario_id(scenario)
        options = {
            name: value
            for name in ("trials", "seed", "rounds", "precision", "fractions", "budget")
            if (value := getattr(asked, name)) not in (None, False)
        }
        reachable = True
        try:
            found = await in_store(
                store.find_result, scenario_id, asked.method, options, engine, deadline=deadline
            )
        except StoreUnreachable:
            found, reachable = None, False
        if found is not None:
            return _odds_answer(found.id, scenario_id, True, found.report)
        key = _request_key(scenario_id, asked.method, options, engine)
        try:
            report: dict[str, Any] = await computed(
                request,
                key,
                deadline,
                jobs.odds_report,
                scenario,
                asked.method,
                asked.trials,
                asked.seed,
                asked.rounds,
                asked.precision,
                asked.fractions,
                asked.budget,
                deadline,
                time_limit,
            )
        except Stopped as exc:
            # odds fit the time by their own reckoning (the pace measured, the trials capped,
            # a fixed number refused): a call stopped was slowed by the load (ruling 25S-1)
            raise stopped(exc, None, "this battle's odds") from None
        if not reachable:
            return _odds_answer(None, scenario_id, False, report, stored=False)
        try:
            saved = await in_store(
                partial(store.save_result, scenario=scenario),
                scenario_id,
                asked.method,
                options,
                engine,
                report,
                deadline=deadline,
            )
        except StoreUnreachable:
            return _odds_answer(None, scenario_id, False, report, stored=False)
        return _odds_answer(saved.id, scenario_id, False, report)

    @app.post(f"{PREFIX}/resolve", openapi_extra=_openapi_body(ResolveRequest), tags=["battles"])
    async def resolve(request: Request) -> dict[str, Any]:
        """Play one battle: its event log (stored, with its seed; ``stored`` false and no
        ``log_id`` when the store is unreachable) and the account ``spacecombat resolve``
        prints."""
        deadline = time.monotonic() + time_limit
        asked: ResolveRequest = await _read(request, ResolveRequest, MAX_BODY_BYTES)
        scenario = await checked(asked.scenario)
        try:
            played: jobs.Resolved = await computed(
                request, None, deadline, jobs.resolve_battle, scenario, asked.seed
            )
        except Stopped as exc:
            raise stopped(exc, "scenario", "playing this battle") from None
        store = the_store()
        scenario_id = store.scenario_id(scenario)
        try:
            log_id = await in_store(
                partial(store.save_log, scenario=scenario),
                scenario_id,
                played.seed,
                played.events,
                deadline=deadline,
            )
        except StoreUnreachable:
            log_id = None
        return {
            "scenario_id": scenario_id,
            "log_id": log_id,
            "stored": log_id is not None,
            "seed": played.seed,
            "events": played.events,
            "text": played.text,
        }

    @app.post(f"{PREFIX}/replay", openapi_extra=_openapi_body(ReplayRequest), tags=["battles"])
    async def replay(request: Request) -> dict[str, Any]:
        """Play a log again and say whether it reproduces, and where it first differs. The log
        (up to 20 MB) is read and checked in a worker, off the event loop."""
        deadline = time.monotonic() + time_limit
        raw = await _body(request, MAX_LOG_BODY_BYTES)
        try:
            done: jobs.Replayed = await computed(
                request, None, deadline, jobs.replay_body, raw, ReplayRequest
            )
        except Stopped as exc:
            raise stopped(exc, "log", "replaying this log") from None
        return {
            "reproduces": done.reproduces,
            "dice_verified": done.dice_verified,
            "first_difference": done.first_difference,
            "message": done.message,
        }

    @app.get(f"{PREFIX}/rulesets", tags=["rules"])
    async def rulesets() -> dict[str, Any]:
        """Each ruleset's units and their cards, upgrades, technologies, factions, laws,
        anomalies, rule options and policy fields, from the rulesets' own data."""
        found: dict[str, Any] = await run_in_threadpool(catalogue)
        return found

    @app.post(f"{PREFIX}/scenarios", openapi_extra=_openapi_body(ScenarioRequest), tags=["store"])
    async def save_scenario(request: Request) -> dict[str, Any]:
        """Store a scenario (checked first); its id opens it again. The same battle saved twice
        has one id."""
        asked: ScenarioRequest = await _read(request, ScenarioRequest, MAX_BODY_BYTES)
        scenario = await checked(asked.scenario)
        scenario_id = await in_store(the_store().save_scenario, scenario)
        return {"id": scenario_id, "scenario": scenario}

    @app.get(f"{PREFIX}/scenarios/{{scenario_id}}", tags=["store"])
    async def get_scenario(scenario_id: str) -> dict[str, Any]:
        """A stored scenario, by its id."""
        scenario = await in_store(the_store().scenario, scenario_id[:200])
        if scenario is None:
            raise ApiError(404, "no scenario has this id", "id")
        return {"id": scenario_id, "scenario": scenario}

    @app.get(f"{PREFIX}/results/{{result_id}}", tags=["store"])
    async def get_result(result_id: str) -> dict[str, Any]:
        """A stored result of the odds, by its id."""
        found = await in_store(the_store().result, result_id[:200])
        if found is None:
            raise ApiError(404, "no result has this id", "id")
        return {
            "id": found.id,
            "scenario_id": found.scenario_id,
            "method": found.method,
            "options": found.options,
            "report": found.report,
        }

    @app.get(f"{PREFIX}/logs/{{log_id}}", tags=["store"])
    async def get_log(log_id: str) -> dict[str, Any]:
        """A stored battle log (``POST /api/v1/resolve``'s ``log_id``): its events, seed and
        scenario's id; the text account as ``spacecombat resolve`` prints it."""
        found = await in_store(the_store().log, log_id[:200])
        if found is None:
            raise ApiError(404, "no battle log has this id", "id")
        return {
            "id": found.id,
            "scenario_id": found.scenario_id,
            "seed": found.seed,
            "events": found.events,
        }

    @app.api_route(
        f"{PREFIX}/{{rest:path}}",
        methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        include_in_schema=False,
    )
    async def elsewhere(request: Request, rest: str) -> None:
        """Any other request under the API's prefix: 405 (with ``Allow``) when its path takes
        other methods, 404 otherwise; never the page's 404 (the page is mounted at ``/``)."""
        allowed = sorted(
            method
            for route in app.routes
            if isinstance(route, APIRoute)
            and route.endpoint is not elsewhere
            and route.matches(request.scope)[0] == Match.PARTIAL
            for method in route.methods or ()
        )
        if allowed:
            raise ApiError(
                405,
                f"{request.method} is not allowed here: use {', '.join(allowed)}",
                headers={"Allow": ", ".join(allowed)},
            )
        raise ApiError(404, "no such API path", "path")

    if STATIC.is_dir():
        app.mount("/", StaticFiles(directory=STATIC, html=True), name="page")
    return app


def _request_key(scenario_id: str, method: str, options: Mapping[str, Any], engine: str) -> str:
    """What identical odds requests share: the scenario, method, options and engine."""
    keyed = json.dumps([scenario_id, method, options, engine], sort_keys=True)
    return hashlib.sha256(keyed.encode()).hexdigest()


def _retrieved(result: asyncio.Future[Any]) -> None:
    """Mark a shared call's outcome read, so that one no request waited for is not logged."""
    if not result.cancelled():
        result.exception()


def _odds_answer(
    result_id: str | None,
    scenario_id: str,
    cached: bool,
    report: Mapping[str, Any],
    *,
    stored: bool = True,
) -> dict[str, Any]:
    return {
        "result_id": result_id,
        "scenario_id": scenario_id,
        "cached": cached,
        "stored": stored,
        "report": dict(report),
    }
