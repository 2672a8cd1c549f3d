"""The CPU-heavy work of the API (odds, resolve, replay), as plain functions run in the worker
processes of ``work.WorkPool``, through ``call``. Each takes and returns plain, picklable
values. A bad scenario or log raises one of the engine's errors (``ScenarioError``,
``RuleNotImplemented``, ``ReplayError``), which ``call`` turns into ``Refused``: the engine's
errors cannot be pickled back from a worker (their constructors take other arguments than
their message), and a result that cannot be unpickled breaks the whole pool. The same code as
the command line's: the report of ``spacecombat odds --format json``, the account of
``spacecombat resolve``, the verdict of ``spacecombat replay``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from pydantic import BaseModel, ValidationError

from spacecombat import rulesets
from spacecombat.analysis.api import fallback_note, odds_result
from spacecombat.analysis.budget import CHANCE_STATES, TooLarge
from spacecombat.analysis.montecarlo import (
    FIXED_TRIALS,
    PRECISION,
    monte_carlo,
    needed_trials,
)
from spacecombat.core.errors import (
    ReplayError,
    RuleNotImplemented,
    ScenarioError,
    SpacecombatError,
)
from spacecombat.core.events import Event
from spacecombat.core.limits import ECHO, MAX_TRIALS, one_line
from spacecombat.replayer import read_log, replay, replay_message
from spacecombat.report.text import render
from spacecombat.resolver import resolve
from spacecombat.rulesets import parse_scenario
from spacecombat.scenario.formats import load_json
from spacecombat.scenario.schema import say
from spacecombat.web.work import give_up_at

P = ParamSpec("P")
T = TypeVar("T")
ModelT = TypeVar("ModelT", bound=BaseModel)

#: the most bytes of a scenario's canonical JSON that the store keeps (ruling 25S-3)
MAX_STORED_SCENARIO_BYTES = 262_144
#: the most characters of one string (a key or a value) in a scenario the store keeps
MAX_STORED_STRING = 200


class BadBody(Exception):
    """A request body refused before any work: ``status`` (400: not JSON; 422: not what the
    request takes), the field (its path) and the message. Picklable: its arguments are its
    fields (a replay's body is read in a worker)."""

    def __init__(self, status: int, field: str | None, message: str) -> None:
        super().__init__(status, field, message)
        self.status = status
        self.field = field
        self.message = message


def field_path(loc: tuple[int | str, ...]) -> str:
    """A request field's path: ``scenario``, ``log[3].event``."""
    parts = [p if isinstance(p, int) or len(p) <= ECHO else p[: ECHO - 1] + "…" for p in loc]
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)
    return field.removeprefix(".") or "body"


def parse_body(raw: bytes, model: type[ModelT]) -> ModelT:
    """A request's body as strict JSON (``BadBody`` 400 otherwise) that ``model`` accepts
    (``BadBody`` 422, naming the field). Run off the event loop: a thread, or a worker for a
    replay's log (``replay_body``)."""
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise BadBody(
            400, None, f"the request body is not UTF-8 text (offset {exc.start})"
        ) from exc
    if not text.strip():
        raise BadBody(400, None, "the request body is empty: send a JSON object")
    try:
        value = load_json(text, "the request body", field="body")
    except ScenarioError as exc:
        raise BadBody(400, "body", exc.message) from exc
    if not isinstance(value, dict):
        raise BadBody(422, "body", "the request body is a JSON object")
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise BadBody(422, field_path(first["loc"]), say(first, model)) from exc


class Refused(Exception):
    """Bad input, as the API answers it (422): the field, when the error names one, and the
    one-line message the command line prints for the same error (``spacecombat: <message>``,
    without the program's name). Picklable: its arguments are its fields."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(field, message)
        self.field = field
        self.message = message

    @classmethod
    def of(cls, exc: SpacecombatError) -> Refused:
        """The refusal of one of the engine's errors."""
        field: str | None = None
        if isinstance(exc, ScenarioError):
            field = exc.field or "scenario"
        elif isinstance(exc, RuleNotImplemented):
            field = exc.where
        elif isinstance(exc, ReplayError):
            field = "log"
        return cls(field, one_line(str(exc)))


def call(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)``, the engine's errors raised as ``Refused``."""
    try:
        return fn(*args, **kwargs)
    except SpacecombatError as exc:
        raise Refused.of(exc) from None


def canonical(scenario: object) -> dict[str, Any]:
    """A scenario checked as a battle would check it (its shape, then its ruleset's set-up:
    units, factions, technologies, rules not implemented) and written canonically: the same
    battle, written differently ("2 cruiser" or ``{cruiser: 2}``, a default spelled out or
    not), is one stored scenario."""
    checked = parse_scenario(scenario)
    rulesets.battle(checked)
    written: dict[str, Any] = checked.model_dump(mode="json", exclude_defaults=True)
    check_storable(written)
    return written


def check_storable(scenario: Mapping[str, Any]) -> None:
    """Refuse a scenario the store would not keep (ruling 25S-3): a string (a key or a
    value) longer than ``MAX_STORED_STRING`` characters, naming its field, or canonical JSON
    longer than ``MAX_STORED_SCENARIO_BYTES``."""

    def walk(value: object, path: tuple[int | str, ...]) -> None:
        if isinstance(value, str) and len(value) > MAX_STORED_STRING:
            raise Refused(
                field_path(("scenario", *path)),
                f"a text of {len(value):,} characters: at most {MAX_STORED_STRING} are kept",
            )
        if isinstance(value, Mapping):
            for key, item in value.items():
                walk(key, path)
                walk(item, (*path, str(key)[:MAX_STORED_STRING]))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))

    walk(scenario, ())
    size = len(json.dumps(scenario, separators=(",", ":"), ensure_ascii=False).encode())
    if size > MAX_STORED_SCENARIO_BYTES:
        raise Refused(
            "scenario",
            f"{size:,} bytes as stored: at most {MAX_STORED_SCENARIO_BYTES:,} are kept",
        )


#: the share of a request's time the exact engine may take before Monte Carlo answers instead
#: (in the rest of the time: ruling 25S-1)
EXACT_SHARE = 0.5
#: seconds of trials played to measure a battle's pace before a fixed number of trials
#: is accepted or refused (``trials_that_fit``)
PACE_SECONDS = 0.05
#: the share of the time left that a fixed number of trials may be expected to take
PACE_MARGIN = 0.8
#: seconds before the request's deadline at which Monte Carlo starts no more batches (at
#: most this share of the time limit): room for the last batch and the answer, should the
#: machine be slower than when the pace was measured
MC_MARGIN = 2.0
MC_MARGIN_SHARE = 0.2


class ExactOutOfTime(TooLarge):
    """The exact engine's share of the request's time is over (raised in it by the worker's
    timer, ``work.give_up_at``): ``odds`` answers by Monte Carlo instead, with this as its
    note, as for any battle too large for the exact engine."""

    def __init__(self, seconds: float, limit: float) -> None:
        super().__init__(
            f"the exact odds did not finish within {seconds:.1f} s, their share of the "
            f"server's time limit of {limit:g} s"
        )


def odds_report(
    scenario: Mapping[str, Any],
    method: str,
    trials: int | None,
    seed: int | None,
    rounds: int | None,
    precision: float | None = None,
    fractions: bool = False,
    budget: int | None = None,
    deadline: float | None = None,
    limit: float | None = None,
) -> dict[str, Any]:
    """What ``spacecombat odds FILE --format json`` prints for these options (the note about
    Monte Carlo options not used included). Run in a daemonic worker, Monte Carlo plays its
    trials in that worker (``analysis/workers.may_start``), with the same figures.

    ``deadline`` (a ``time.monotonic()`` reading; the request's time limit of ``limit``
    seconds, issue 25; ruling 25S-1): the exact engine gets ``EXACT_SHARE`` of the time left,
    and the odds are Monte Carlo's when it is over (``ExactOutOfTime``) or the battle is too
    large for it, as the command line falls back, its note saying why; Monte Carlo plays at
    most the trials that fit in the time left (``trials_that_fit``: a fixed number that does
    not fit is refused, naming ``trials`` and how many fit), and says so in its note."""

    def answer(**changed: Any) -> dict[str, Any]:
        asked: dict[str, Any] = {
            "method": method,
            "trials": trials,
            "seed": seed,
            "workers": None,
            "rounds": rounds,
            "precision": precision,
            "fractions": fractions,
            "budget": budget,
            "progress": None,
            "deadline": deadline,
        }
        return odds_result(dict(scenario), **{**asked, **changed})

    if deadline is None or limit is None:
        return answer()
    deadline -= min(MC_MARGIN, MC_MARGIN_SHARE * limit)
    if method != "exact":
        if rounds is not None or fractions:
            return answer()  # refused: options of the exact method (``analysis.api.odds``)
        return _sampled(answer, scenario, trials, seed, precision, deadline, limit)
    share = EXACT_SHARE * max(0.0, deadline - time.monotonic())
    when = time.monotonic() + share
    try:
        return answer(
            exact_within=lambda: give_up_at(when, lambda: ExactOutOfTime(share, limit)),
            fallback=False,
        )
    except TooLarge as exc:
        # as ``analysis.api.odds`` falls back, within the time left
        why = fallback_note(exc, CHANCE_STATES if budget is None else budget)
    if rounds is not None:
        why += f"; the state after {rounds} round(s) is not available from Monte Carlo"
    result = _sampled(answer, scenario, trials, seed, precision, deadline, limit)
    result["note"] = f"{why}; {result['note']}" if result.get("note") else why
    if fractions:
        result["fractions"] = {}  # Monte Carlo's figures are no fractions (as the command line)
    return result


def _sampled(
    answer: Callable[..., dict[str, Any]],
    scenario: Mapping[str, Any],
    trials: int | None,
    seed: int | None,
    precision: float | None,
    deadline: float,
    limit: float,
) -> dict[str, Any]:
    """Monte Carlo's odds (``answer(method="montecarlo", ...)``) within the deadline: at most
    the trials that fit in the time left; a fixed number (``precision`` 0) that does not fit is
    refused (``Refused`` naming ``trials``, and how many fit)."""
    target = PRECISION if precision is None else precision
    wanted = trials or (min(MAX_TRIALS, needed_trials(target)) if target else FIXED_TRIALS)
    fit = trials_that_fit(scenario, seed or 0, deadline - time.monotonic(), wanted)
    if fit < 1:
        raise Refused(
            "scenario",
            f"one battle of this size takes longer to play than the server's time limit of "
            f"{limit:g} s leaves",
        )
    if wanted > fit and not target:
        raise Refused(
            "trials",
            f"{wanted:,} battles of this size do not fit in the server's time limit of "
            f"{limit:g} s: at most {fit:,} do (or give a precision: Monte Carlo then plays "
            "what fits and says the precision it reached)",
        )
    cut = wanted > fit
    result = answer(
        method="montecarlo", rounds=None, fractions=False, trials=fit if cut else trials
    )
    played = result.get("trials", 0)
    if cut or (played < wanted and time.monotonic() >= deadline):
        note = (
            f"{played:,} trials played: what fits in the server's time limit of {limit:g} s "
            f"(at most {wanted:,} were asked for)"
        )
        if "precision" in result:
            note += f"; every headline within ±{result['precision']['widest']:g}"
        result["note"] = f"{result['note']}; {note}" if result.get("note") else note
    return result


def trials_that_fit(
    scenario: Mapping[str, Any], seed: int, seconds: float, wanted: int | None = None
) -> int:
    """How many Monte Carlo trials of ``scenario`` fit in ``seconds`` (with ``PACE_MARGIN``),
    at the pace of a few played first: one (its time is mostly the set-up every run pays),
    then 4, 16, ... until a run takes ``PACE_SECONDS``; the pace is that run's time, the
    set-up taken off, per trial. With ``wanted``: ``wanted`` as soon as a run shows that
    they fit even at its pace with the set-up counted in (a small battle is not measured
    further)."""
    began = time.monotonic()

    def run(count: int) -> float:
        started = time.monotonic()
        monte_carlo(dict(scenario), trials=count, seed=seed, workers=1, precision=0)
        return time.monotonic() - started

    setup = run(1)
    if setup >= seconds:
        return 0
    count = 4
    while True:
        took = run(count)
        left = seconds - (time.monotonic() - began)
        if wanted is not None and took / count * wanted <= PACE_MARGIN * left:
            return wanted
        if took >= PACE_SECONDS or count >= 4_096:
            pace = max(took - setup, took / 2) / count
            return max(0, int(PACE_MARGIN * left / pace))
        count *= 4


@dataclass(frozen=True)
class Resolved:
    """One battle played: its log, its seed and the account ``spacecombat resolve`` prints."""

    events: list[Event]
    seed: int | None
    text: str


def resolve_battle(scenario: Mapping[str, Any], seed: int | None) -> Resolved:
    """Play one battle (``seed`` None: the scenario's own seed, EC4X, or a fresh random one)."""
    played = resolve(dict(scenario), seed=seed)
    events = list(played.events)
    logged = events[0].get("seed") if events else None
    return Resolved(events, logged if isinstance(logged, int) else None, render(events))


@dataclass(frozen=True)
class Replayed:
    """Whether a log reproduces (``spacecombat.replayer.ReplayReport``), in the API's terms."""

    reproduces: bool
    dice_verified: bool
    first_difference: dict[str, Any] | None
    message: str


def replay_log(log: object) -> Replayed:
    """Replay a log given as a list of event objects (event ``i`` is "log line" ``i + 1``) or
    as JSON Lines text (read as ``spacecombat replay`` reads a file: each line strictly,
    errors naming the line)."""
    if isinstance(log, str):
        events, lines = read_log(log)
    elif isinstance(log, list):
        for number, item in enumerate(log, 1):
            if not isinstance(item, dict):
                raise ReplayError(f"log line {number}: an event is a JSON object")
        events = [dict(item) for item in log]
        lines = list(range(1, len(events) + 1))
    else:
        raise ReplayError("a log is a list of event objects, or JSON Lines text")
    if not events:
        raise ReplayError("the log is empty: it needs at least its battle_started event")
    report = replay(events, lines)
    difference = None
    if not report.reproduces:
        difference = {
            "index": report.index,
            "line": report.line,
            "reason": report.reason,
            "expected": report.expected,
            "got": report.got,
        }
    return Replayed(report.reproduces, report.verified, difference, replay_message(report))


def replay_body(raw: bytes, model: type[BaseModel]) -> Replayed:
    """A replay request's body (``parse_body``, with ``model``, whose field ``log`` is the
    log) read and replayed in a worker: a log of up to 20 MB is parsed there, not on the
    server's event loop."""
    asked = parse_body(raw, model)
    return replay_log(getattr(asked, "log"))  # noqa: B009 (the model is the API's)
