"""Solving a sweep's points: each as ``odds()`` would (exact; Monte Carlo with its note when the
exact engine gives up; or Monte Carlo asked for), with the point's own seed, and the row it
adds to the table (docs/sweeps.md, "Columns")."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from spacecombat.analysis.api import odds
from spacecombat.analysis.budget import CHANCE_STATES
from spacecombat.analysis.chain_cache import PartsCache, sharing
from spacecombat.analysis.montecarlo import PRECISION
from spacecombat.core.errors import SpacecombatError
from spacecombat.core.limits import one_line
from spacecombat.rulesets import parse_scenario

#: the columns after the axes that every table has, in order (holds and losses are added by
#: player or house between ``draw`` and ``expected_rounds``)
LEADING = ("attacker_win", "defender_win", "draw")
TRAILING = ("expected_rounds", "method", "note")

#: the round tables a worker process keeps from point to point (``chain_cache``)
_CACHE = PartsCache()


def worker_cache() -> PartsCache:
    return _CACHE


def solve_point(
    scenario: Mapping[str, Any], seed: int, options: Mapping[str, Any], *, cache: bool = True
) -> dict[str, Any]:
    """One point's odds as a row (without the axes' columns)."""
    precision = options.get("precision")
    budget = options.get("budget")

    def solve() -> dict[str, Any]:
        report = odds(
            parse_scenario(scenario),
            method=str(options.get("method", "exact")),
            trials=options.get("trials"),
            seed=seed,
            workers=1,
            precision=PRECISION if precision is None else float(precision),
            limit=CHANCE_STATES if budget is None else int(budget),
        )
        return row_of(report.to_json())

    if not cache:
        return solve()
    with sharing(_CACHE, scenario):
        return solve()


def solve_batch(
    points: Sequence[tuple[int, Mapping[str, Any], int]],
    options: Mapping[str, Any],
    cache: bool = True,
) -> list[tuple[int, dict[str, Any]]]:
    """A task of the sweep: its points (number, scenario, seed), each solved in order on the
    worker that runs it, the garbage collector's youngest generation collected less often
    (``fewer_collections``)."""
    rows = []
    with fewer_collections():
        for number, scenario, seed in points:
            try:
                row = solve_point(scenario, seed, options, cache=cache)
            except SpacecombatError as exc:
                # a combination of values the rules refuse (a rule not implemented, say): the
                # point's row says so, the others are solved
                row = {"method": "error", "note": one_line(str(exc))}
            rows.append((number, row))
    return rows


#: objects allocated (less those freed) between two collections of the youngest generation
#: while a task runs (Python's default: 700)
YOUNGEST_THRESHOLD = 10_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Python's cycle collector run less often while a task's points are solved: a point makes
    and drops many small objects (states, tables), and with the default threshold the collector
    runs every 700 of them and walks the objects that survived, the worker's cache among them,
    again and again; about 5% of a point's time in the sweep's benchmark (docs/benchmarks.md,
    26G). Memory is still collected, 10,000 objects apart instead of 700; the thresholds are
    the process's own again after the task."""
    before = gc.get_threshold()
    gc.set_threshold(YOUNGEST_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def row_of(result: Mapping[str, Any]) -> dict[str, Any]:
    """The table's columns of one odds result (``OddsReport.to_json``): the headline chances,
    who holds the system (``holds_PLAYER``; an EC4X house's ``holds``), the expected losses
    (``expected_losses_PLAYER``), the expected rounds, the method and the note."""
    row: dict[str, Any] = {name: _number(result.get(name)) for name in LEADING}
    houses = result.get("houses")
    for field in ("holds", "expected_losses"):
        # by player (TI), or within each EC4X house's part
        by_side = result.get(field)
        if isinstance(by_side, Mapping):
            for who, value in by_side.items():
                row[f"{field}_{who}"] = _number(value)
        elif isinstance(houses, Mapping):
            for house, part in houses.items():
                if isinstance(part, Mapping):
                    row[f"{field}_{house}"] = _number(part.get(field))
    rounds = result.get("rounds")
    expected = rounds.get("expected") if isinstance(rounds, Mapping) else None
    row["expected_rounds"] = _number(expected)
    row["method"] = str(result.get("method", ""))
    row["note"] = str(result.get("note") or "")
    return row


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
