"""The HTTP API (``/api/v1``, OpenAPI at ``/docs``) and the page at ``/``.

Every body is read within a limit (413 beyond it), decoded as strictly as the command line
reads a JSON file (``scenario/formats.load_json``: depth, keys written twice, NaN; 400 when it
is not JSON), and checked against its request model, unknown fields refused (422). A bad
scenario gets 422 with the field's path and the message the command line prints for it. The
CPU-heavy work runs in a bounded pool of worker processes (``work.WorkPool``): when the pool is
full the answer is 503 with ``Retry-After``. Odds are stored by scenario, method, options and
engine version, and a repeated request is answered from the store. No request reads or writes
a file or runs code it sends; an unexpected error is logged and answered with a 500 that says
nothing of the server's insides.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from functools import cache, partial
from importlib import resources
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Annotated, Any, Final, Literal, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    StrictFloat,
    StrictInt,
    ValidationError,
)
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import (
    ECHO,
    MAX_CHANCE_STATES,
    MAX_LOG_BYTES,
    MAX_PRECISION,
    MAX_ROUNDS,
    MAX_SCENARIO_BYTES,
    MAX_SEED,
    MAX_TRIALS,
    one_line,
)
from spacecombat.scenario.formats import load_json
from spacecombat.scenario.schema import say
from spacecombat.store import Store
from spacecombat.web import jobs, sweeps
from spacecombat.web.catalogue import catalogue
from spacecombat.web.work import Saturated, WorkPool

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


def _loc(loc: tuple[int | str, ...]) -> str:
    """A request field's path: ``scenario``, ``log[3].event``."""
    parts = [p if isinstance(p, int) or len(p) <= ECHO else p[: ECHO - 1] + "…" for p in loc]
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)
    return field.removeprefix(".") or "body"


# ---- reading a request ------------------------------------------------------------------------


ModelT = TypeVar("ModelT", bound=BaseModel)


async def _read(request: Request, model: type[ModelT], limit: int) -> ModelT:
    """The request's body, within ``limit`` bytes (413), as strict JSON (400) that ``model``
    accepts (422, naming the field)."""
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
    try:
        text = b"".join(chunks).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"the request body is not UTF-8 text (offset {exc.start})") from exc
    if not text.strip():
        raise ApiError(400, "the request body is empty: send a JSON object")
    try:
        value = load_json(text, "the request body", field="body")
    except ScenarioError as exc:
        raise ApiError(400, exc.message, "body") from exc
    if not isinstance(value, dict):
        raise ApiError(422, "the request body is a JSON object", "body")
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ApiError(422, say(first, model), _loc(first["loc"])) from exc


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


def app_from_environment() -> FastAPI:
    """The app of one of several server processes (``spacecombat serve --processes N``): its
    store is ``SPACECOMBAT_DB``'s, its work pool has ``SPACECOMBAT_POOL_WORKERS`` processes
    (default: one per core)."""
    workers = os.environ.get(POOL_WORKERS_ENV, "")
    return create_app(workers=int(workers) if workers.isdigit() else None)


def create_app(
    store: Store | None = None,
    *,
    workers: int | None = None,
    capacity: int | None = None,
) -> FastAPI:
    """The API (and the page, when its folder is there). ``store``: where scenarios, results
    and logs are kept (default: ``Store()``: ``SPACECOMBAT_DB``, else SQLite in the user's
    data folder), opened at start-up and closed at shutdown when made here; ``workers`` and
    ``capacity``: the work pool's processes (default: one per core) and the most calls in it
    at once (default: four per worker)."""
    owned = store is None
    engine = engine_version()  # read once, now, rather than in the first request
    state: dict[str, Any] = {"store": store}
    pool = WorkPool(workers, capacity)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool.start()
        if state["store"] is None:
            state["store"] = await run_in_threadpool(Store)
        try:
            yield
        finally:
            pool.close()
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

    def the_store() -> Store:
        found: Store | None = state["store"]
        if found is None:
            raise RuntimeError("the store is opened at start-up (run the app with its lifespan)")
        return found

    async def in_store(call: Callable[..., Any], *args: Any) -> Any:
        return await run_in_threadpool(call, *args)

    async def work(fn: Callable[..., Any], *args: Any) -> Any:
        return await pool.run(jobs.call, fn, *args)

    async def checked(scenario: object) -> dict[str, Any]:
        found: dict[str, Any] = await run_in_threadpool(jobs.call, jobs.canonical, scenario)
        return found

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message, exc.field, exc.headers)

    @app.exception_handler(jobs.Refused)
    async def refused(request: Request, exc: jobs.Refused) -> JSONResponse:
        return _error(422, exc.message, exc.field)

    @app.exception_handler(Saturated)
    async def saturated(request: Request, exc: Saturated) -> JSONResponse:
        return _error(503, str(exc), headers={"Retry-After": str(exc.retry_after)})

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
    app.include_router(sweeps.router(the_store, pool, PREFIX, _read, MAX_BODY_BYTES, ApiError))

    @app.post(f"{PREFIX}/odds", openapi_extra=_openapi_body(OddsRequest), tags=["battles"])
    async def odds(request: Request) -> dict[str, Any]:
        """The odds of a battle: the report of ``spacecombat odds --format json``, from the
        store when the same request was answered before by this engine."""
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
        found = await in_store(store.find_result, scenario_id, asked.method, options, engine)
        if found is not None:
            return _odds_answer(found.id, scenario_id, True, found.report)
        report: dict[str, Any] = await work(
            jobs.odds_report,
            scenario,
            asked.method,
            asked.trials,
            asked.seed,
            asked.rounds,
            asked.precision,
            asked.fractions,
            asked.budget,
        )
        saved = await in_store(
            partial(store.save_result, scenario=scenario),
            scenario_id,
            asked.method,
            options,
            engine,
            report,
        )
        return _odds_answer(saved.id, scenario_id, False, report)

    @app.post(f"{PREFIX}/resolve", openapi_extra=_openapi_body(ResolveRequest), tags=["battles"])
    async def resolve(request: Request) -> dict[str, Any]:
        """Play one battle: its event log (stored, with its seed) and the account ``spacecombat
        resolve`` prints."""
        asked: ResolveRequest = await _read(request, ResolveRequest, MAX_BODY_BYTES)
        scenario = await checked(asked.scenario)
        played: jobs.Resolved = await work(jobs.resolve_battle, scenario, asked.seed)
        store = the_store()
        scenario_id = store.scenario_id(scenario)
        log_id = await in_store(
            partial(store.save_log, scenario=scenario), scenario_id, played.seed, played.events
        )
        return {
            "scenario_id": scenario_id,
            "log_id": log_id,
            "seed": played.seed,
            "events": played.events,
            "text": played.text,
        }

    @app.post(f"{PREFIX}/replay", openapi_extra=_openapi_body(ReplayRequest), tags=["battles"])
    async def replay(request: Request) -> dict[str, Any]:
        """Play a log again and say whether it reproduces, and where it first differs."""
        asked: ReplayRequest = await _read(request, ReplayRequest, MAX_LOG_BODY_BYTES)
        done: jobs.Replayed = await work(jobs.replay_log, asked.log)
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

    if STATIC.is_dir():
        app.mount("/", StaticFiles(directory=STATIC, html=True), name="page")
    return app


def _odds_answer(
    result_id: str, scenario_id: str, cached: bool, report: Mapping[str, Any]
) -> dict[str, Any]:
    return {
        "result_id": result_id,
        "scenario_id": scenario_id,
        "cached": cached,
        "report": dict(report),
    }
