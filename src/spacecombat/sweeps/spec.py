"""A sweep spec: a base scenario and the axes along which it varies (docs/sweeps.md).

```yaml
scenario: {ruleset: ti4, battle: space, attacker: {units: "2 dreadnought"}, defender: ...}
axes:
  defender.units.cruiser: 1..12            # a range of counts, both ends included
  defender.technologies: [[], [assault_cannon]]
  attacker.faction: all                    # every implemented faction of the ruleset
zip: [[defender.units.cruiser, attacker.units.destroyer]]   # optional: axes stepped together
seed: 0                                    # Monte Carlo seeds are derived from it and the point
method: exact                              # or montecarlo; trials, precision, budget as odds
```

Every input is checked before any work starts (``load_spec``), as a scenario is: an unknown key
or path, a bad range, a value the scenario does not allow (each axis value is put into the base
scenario and validated like a scenario), more points than ``MAX_SWEEP_POINTS``, an estimated cost
over ``MAX_SWEEP_COST``. Each error is a ``ScenarioError`` naming the field (``axes.PATH``,
``zip``, ...), exit status 2 from the command line.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from spacecombat import rulesets
from spacecombat.core.errors import ScenarioError, SpacecombatError
from spacecombat.core.limits import (
    MAX_CHANCE_STATES,
    MAX_PRECISION,
    MAX_SEED,
    MAX_TRIALS,
    MIN_PRECISION,
    shown,
)
from spacecombat.rulesets import catalogue
from spacecombat.scenario.notation import Fleet

#: the most points a sweep may have (docs/limits.md)
MAX_SWEEP_POINTS = 100_000
#: the most a sweep's estimated cost may be (``point_cost``: state pairs, or trials × units)
MAX_SWEEP_COST = 2_000_000_000
#: the longest a range of counts may be
MAX_RANGE = 1_000
#: the top-level keys of a spec
KEYS = ("scenario", "axes", "zip", "seed", "method", "trials", "precision", "budget")

_RANGE = re.compile(r"^\s*(\d{1,6})\s*\.\.\s*(\d{1,6})\s*$", re.ASCII)
_SEGMENT = re.compile(r"^(?:[a-z_][a-z0-9_]*|\d{1,4})$", re.ASCII)


@dataclass(frozen=True)
class Axis:
    """One axis: its dotted path as written and its values, in order."""

    path: str
    values: tuple[Any, ...]


@dataclass
class SweepSpec:
    """A checked sweep spec (``load_spec``)."""

    scenario: dict[str, Any]
    axes: list[Axis]
    zipped: list[list[str]] = field(default_factory=list)
    seed: int = 0
    method: str = "exact"
    trials: int | None = None
    precision: float | None = None
    budget: int | None = None

    @property
    def paths(self) -> list[str]:
        return [axis.path for axis in self.axes]

    def points(self) -> Iterator[tuple[Any, ...]]:
        """Each point's values, one per axis in the spec's order: the zipped groups stepped
        together, the groups and the other axes combined as a product (the first axis
        varying slowest)."""
        by_path = {axis.path: axis for axis in self.axes}
        grouped = {path for group in self.zipped for path in group}
        # each factor of the product: the axes it sets and its rows of values
        factors: list[tuple[list[str], list[tuple[Any, ...]]]] = []
        for axis in self.axes:
            group = next((g for g in self.zipped if axis.path in g), None)
            if group is None:
                factors.append(([axis.path], [(v,) for v in axis.values]))
            elif group[0] == axis.path:
                rows = list(zip(*(by_path[p].values for p in group), strict=True))
                factors.append((group, rows))
            else:
                assert axis.path in grouped
        order = self.paths
        for combo in itertools.product(*(rows for _, rows in factors)):
            values: dict[str, Any] = {}
            for (paths, _), row in zip(factors, combo, strict=True):
                values.update(zip(paths, row, strict=True))
            yield tuple(values[p] for p in order)

    def count(self) -> int:
        total = 1
        for axis in self.axes:
            group = next((g for g in self.zipped if axis.path in g), None)
            if group is None or group[0] == axis.path:
                total *= len(axis.values)
        return total

    def scenario_at(self, values: tuple[Any, ...]) -> dict[str, Any]:
        """The base scenario with each axis's path set to its value."""
        scenario = copy.deepcopy(self.scenario)
        for axis, value in zip(self.axes, values, strict=True):
            put(scenario, axis.path, value)
        return scenario

    def options(self) -> dict[str, Any]:
        """The odds options every point is solved with."""
        return {
            "method": self.method,
            "trials": self.trials,
            "precision": self.precision,
            "budget": self.budget,
        }

    def to_json(self) -> dict[str, Any]:
        """The spec as it was read, normalised (ranges and ``all`` written out)."""
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "axes": {axis.path: list(axis.values) for axis in self.axes},
            "seed": self.seed,
            "method": self.method,
        }
        if self.zipped:
            out["zip"] = self.zipped
        for name in ("trials", "precision", "budget"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        return out

    def digest(self) -> str:
        """What identifies the sweep's work: a resumed run must have the same."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


def point_seed(seed: int, values: tuple[Any, ...]) -> int:
    """The Monte Carlo seed of one point: from the sweep's seed and the point's values (never
    from the point's place in a queue), so an answer does not depend on scheduling."""
    text = json.dumps([seed, list(values)], sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") % (MAX_SEED + 1)


def put(scenario: dict[str, Any], path: str, value: Any) -> None:
    """Set ``path`` (dotted; a number indexes a list) in ``scenario``. Mappings on the way are
    made when missing; units written in fleet notation (``"2 dreadnought"``) are read into
    counts first, so that ``attacker.units.cruiser`` can be set."""
    parts = path.split(".")
    here: Any = scenario
    for depth, part in enumerate(parts[:-1]):
        where = ".".join(parts[: depth + 1])
        nxt = _child(here, part, where)
        if nxt is None:
            nxt = {}
            _set(here, part, nxt, where)
        elif isinstance(nxt, str) and part == "units":
            nxt = Fleet.parse(nxt, f"scenario.{where}").as_dict()
            _set(here, part, nxt, where)
        here = nxt
    _set(here, parts[-1], copy.deepcopy(value), path)


def _child(here: Any, part: str, where: str) -> Any:
    if isinstance(here, dict):
        return here.get(part)
    if isinstance(here, list) and part.isdigit():
        if int(part) >= len(here):
            raise ScenarioError(f"axes.{where}", f"the scenario's list has {len(here)} items")
        return here[int(part)]
    raise ScenarioError(f"axes.{where}", f"the scenario has no such path ({shown(here)} there)")


def _set(here: Any, part: str, value: Any, where: str) -> None:
    if isinstance(here, dict):
        here[part] = value
    elif isinstance(here, list) and part.isdigit() and int(part) < len(here):
        here[int(part)] = value
    else:
        raise ScenarioError(f"axes.{where}", "the scenario has no such path")


def load_spec(data: object) -> SweepSpec:
    """A decoded spec (YAML or JSON), checked whole before any work (module docstring)."""
    if not isinstance(data, dict):
        raise ScenarioError("spec", f"must be a mapping with scenario and axes (got {shown(data)})")
    unknown = sorted(set(data) - set(KEYS), key=str)
    if unknown:
        raise ScenarioError(
            str(unknown[0]), f"is not a key of a sweep spec; allowed: {', '.join(KEYS)}"
        )
    scenario = data.get("scenario")
    if not isinstance(scenario, dict):
        raise ScenarioError("scenario", f"must be a scenario, a mapping (got {shown(scenario)})")
    _checked_scenario(scenario, "scenario")
    ruleset = str(scenario.get("ruleset", "ti4"))
    axes_data = data.get("axes")
    if not isinstance(axes_data, dict) or not axes_data:
        raise ScenarioError(
            "axes", "must map at least one dotted path into the scenario to its values"
        )
    axes = [_axis(str(path), values, ruleset) for path, values in axes_data.items()]
    spec = SweepSpec(
        scenario=scenario,
        axes=axes,
        zipped=_zipped(data.get("zip"), axes),
        seed=_whole(data, "seed", 0, MAX_SEED, 0),
        method=_method(data.get("method", "exact")),
        trials=_whole(data, "trials", 1, MAX_TRIALS, None),
        precision=_precision(data.get("precision")),
        budget=_whole(data, "budget", 1, MAX_CHANCE_STATES, None),
    )
    _check_values(spec)
    count = spec.count()
    if count > MAX_SWEEP_POINTS:
        raise ScenarioError(
            "axes", f"{count:,} points, more than the limit of {MAX_SWEEP_POINTS:,} a sweep"
        )
    _check_cost(spec)
    return spec


def _checked_scenario(scenario: Mapping[str, Any], name: str) -> object:
    """The scenario checked as a battle would check it: its shape, then its ruleset's set-up
    (units, factions, technologies, rules not implemented)."""
    try:
        return rulesets.battle(rulesets.parse_scenario(scenario))
    except ScenarioError as exc:
        raise ScenarioError(f"{name}.{exc.field}", exc.message) from exc


def _axis(path: str, values: object, ruleset: str) -> Axis:
    name = f"axes.{path}"
    if not path or not all(_SEGMENT.match(part) for part in path.split(".")):
        raise ScenarioError(
            name, "must be a dotted path into the scenario, e.g. attacker.units.cruiser"
        )
    if isinstance(values, str) and values.strip() == "all":
        if not path.endswith(".faction"):
            raise ScenarioError(name, "'all' is for a faction (a path ending in .faction)")
        return Axis(path, tuple(factions(ruleset)))
    if isinstance(values, str) and ".." in values:
        match = _RANGE.match(values)
        if match is None:
            raise ScenarioError(
                name, f"a range is written FIRST..LAST, whole numbers (got {shown(values)})"
            )
        first, last = int(match.group(1)), int(match.group(2))
        if first > last:
            raise ScenarioError(name, f"the range {values.strip()} is empty: {first} > {last}")
        if last - first + 1 > MAX_RANGE:
            raise ScenarioError(name, f"a range has at most {MAX_RANGE:,} values")
        return Axis(path, tuple(range(first, last + 1)))
    if not isinstance(values, list) or not values:
        raise ScenarioError(
            name,
            f"must be a list of values, a range FIRST..LAST or all (got {shown(values)})",
        )
    seen: list[str] = []
    for value in values:
        key = json.dumps(value, sort_keys=True)
        if key in seen:
            raise ScenarioError(name, f"the value {shown(value)} is given twice")
        seen.append(key)
    return Axis(path, tuple(values))


def factions(ruleset: str) -> list[str]:
    """Every faction of ``ruleset`` whose abilities are all implemented (``all``)."""
    if ruleset not in ("ti4", "ti3"):
        raise ScenarioError("axes", f"'all' factions: the ruleset {shown(ruleset)} has none")
    data = catalogue.ti4() if ruleset == "ti4" else catalogue.ti3()
    return sorted(key for key, faction in data["factions"].items() if faction["implemented"])


def _zipped(data: object, axes: list[Axis]) -> list[list[str]]:
    if data is None:
        return []
    paths = {axis.path: axis for axis in axes}
    if not isinstance(data, list) or not all(isinstance(group, list) for group in data):
        raise ScenarioError("zip", "must be a list of groups of axes, e.g. [[a.b, c.d]]")
    used: set[str] = set()
    groups: list[list[str]] = []
    for number, group in enumerate(data):
        where = f"zip.{number}"
        if len(group) < 2:
            raise ScenarioError(where, "a zipped group has at least two axes")
        for path in group:
            if path not in paths:
                raise ScenarioError(where, f"{shown(path)} is not one of the axes")
            if path in used:
                raise ScenarioError(where, f"{shown(path)} is zipped twice")
            used.add(path)
        lengths = {len(paths[p].values) for p in group}
        if len(lengths) > 1:
            raise ScenarioError(
                where, f"zipped axes must have as many values each (got {sorted(lengths)})"
            )
        # in the spec's order of axes, so the columns and points follow the axes
        groups.append([a.path for a in axes if a.path in group])
    return groups


def _whole(data: Mapping[str, Any], name: str, least: int, most: int, default: Any) -> Any:
    value = data.get(name, default)
    if value is default:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise ScenarioError(name, f"must be a whole number from {least} to {most:,}")
    return value


def _method(value: object) -> str:
    if value not in ("exact", "montecarlo"):
        raise ScenarioError("method", f"must be exact or montecarlo (got {shown(value)})")
    return str(value)


def _precision(value: object) -> float | None:
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not (value == 0 or MIN_PRECISION <= value <= MAX_PRECISION)
    ):
        raise ScenarioError(
            "precision", f"must be 0 or a number from {MIN_PRECISION} to {MAX_PRECISION}"
        )
    return float(value)


def _check_values(spec: SweepSpec) -> None:
    """Each value of each axis, put into the base scenario with the other axes at their first
    values, must make a valid scenario."""
    firsts = [axis.values[0] for axis in spec.axes]
    for number, axis in enumerate(spec.axes):
        for value in axis.values:
            values = (*firsts[:number], value, *firsts[number + 1 :])
            try:
                _checked_scenario(spec.scenario_at(values), "scenario")
            except ScenarioError as exc:
                if exc.field.startswith("axes."):
                    raise
                raise ScenarioError(
                    f"axes.{axis.path}", f"the value {shown(value)}: {exc}"
                ) from exc
            except SpacecombatError as exc:
                raise ScenarioError(
                    f"axes.{axis.path}", f"the value {shown(value)}: {exc}"
                ) from exc


def point_cost(scenario: Mapping[str, Any], method: str, trials: int | None) -> int:
    """A point's estimated cost: for the exact method the pairs of the two players' unit
    counts ``(1 + a) × (1 + d)`` (the joint states of rounds in product form grow so), for
    Monte Carlo its trials (at most, by default) times the units, every unit a die a round."""
    a, d = _units(scenario.get("attacker")), _units(scenario.get("defender"))
    for planet in scenario.get("planets") or []:
        if isinstance(planet, dict):
            d += _units(planet)
    if method == "montecarlo":
        return (trials or 38_415) * max(1, a + d)
    return (1 + a) * (1 + d)


def _units(side: object) -> int:
    if not isinstance(side, dict):
        return 0
    units = side.get("units", side.get("defender"))
    if isinstance(units, str):
        try:
            return sum(count for _, count in Fleet.parse(units))
        except ScenarioError:
            return 0
    if isinstance(units, dict):
        return sum(v for v in units.values() if isinstance(v, int))
    return 0


def _check_cost(spec: SweepSpec) -> None:
    total = 0
    for values in spec.points():
        total += point_cost(spec.scenario_at(values), spec.method, spec.trials)
        if total > MAX_SWEEP_COST:
            raise ScenarioError(
                "axes",
                f"the sweep's estimated cost is over the limit of {MAX_SWEEP_COST:,} "
                "(the sum over its points of the pairs of unit counts, exact, or of trials "
                "times units, Monte Carlo): fewer points or smaller battles",
            )
