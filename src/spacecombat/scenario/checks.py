"""Checks of a scenario's meaning that every ruleset makes the same way."""

from __future__ import annotations

from collections.abc import Mapping

from spacecombat.core.errors import ScenarioError
from spacecombat.core.forces import Forces
from spacecombat.scenario.schema import Scenario


def planet_names(scenario: Scenario) -> tuple[str, ...]:
    """The invasion's planets by name (a space battle has one area for its planets, and an
    invasion without ``planets`` one planet), each named once."""
    if scenario.battle == "space":
        if scenario.planets is not None:
            raise ScenarioError(
                "planets",
                "only an invasion names planets; a space battle uses each side's planet_units",
            )
        return ("planets",)
    if scenario.planets is None:
        return ("planet",)
    if not scenario.planets:
        raise ScenarioError("planets", "an invasion needs at least one planet")
    names = [p.name for p in scenario.planets]
    for i, name in enumerate(names):
        if names.index(name) != i:
            raise ScenarioError(f"planets[{i}].name", f"{name!r} is named twice")
    return tuple(names)


def forces(counts: Mapping[str, int], damaged: Mapping[str, int]) -> Forces:
    """Units with those of them damaged (damaged counts are checked elsewhere)."""
    return Forces.of(counts, {u: n for u, n in damaged.items() if u in counts})
