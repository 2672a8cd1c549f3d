"""The CPU-heavy work of the API (odds, resolve, replay), as plain functions run in the worker
processes of ``work.WorkPool``, through ``call``. Each takes and returns plain, picklable
values. A bad scenario or log raises one of the engine's errors (``ScenarioError``,
``RuleNotImplemented``, ``ReplayError``), which ``call`` turns into ``Refused``: the engine's
errors cannot be pickled back from a worker (their constructors take other arguments than
their message), and a result that cannot be unpickled breaks the whole pool. The same code as
the command line's: the report of ``spacecombat odds --format json``, the account of
``spacecombat resolve``, the verdict of ``spacecombat replay``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from spacecombat import rulesets
from spacecombat.analysis.api import odds_result
from spacecombat.core.errors import (
    ReplayError,
    RuleNotImplemented,
    ScenarioError,
    SpacecombatError,
)
from spacecombat.core.events import Event
from spacecombat.core.limits import one_line
from spacecombat.replayer import read_log, replay, replay_message
from spacecombat.report.text import render
from spacecombat.resolver import resolve
from spacecombat.rulesets import parse_scenario

P = ParamSpec("P")
T = TypeVar("T")


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
    return written


def odds_report(
    scenario: Mapping[str, Any],
    method: str,
    trials: int | None,
    seed: int | None,
    rounds: int | None,
    precision: float | None = None,
    fractions: bool = False,
    budget: int | None = None,
) -> dict[str, Any]:
    """What ``spacecombat odds FILE --format json`` prints for these options (the note about
    Monte Carlo options not used included). Run in a daemonic worker, Monte Carlo plays its
    trials in that worker (``analysis/workers.may_start``), with the same figures."""
    return odds_result(
        dict(scenario),
        method=method,
        trials=trials,
        seed=seed,
        workers=None,
        rounds=rounds,
        precision=precision,
        fractions=fractions,
        budget=budget,
        progress=None,
    )


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
