"""Checks of a scenario's meaning that every ruleset makes the same way."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from spacecombat.core.errors import ScenarioError
from spacecombat.core.forces import Forces
from spacecombat.core.limits import shown
from spacecombat.core.sides import SideState
from spacecombat.scenario.schema import Scenario, SideSpec


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
            raise ScenarioError(f"planets[{i}].name", f"{shown(name)} is named twice")
    return tuple(names)


def forces(counts: Mapping[str, int], damaged: Mapping[str, int]) -> Forces:
    """Units with those of them damaged (damaged counts are checked elsewhere)."""
    return Forces.of(counts, {u: n for u, n in damaged.items() if u in counts})


def space_battle_units(
    where: str,
    spec: SideSpec,
    is_ground_force: Callable[[str], bool],
    is_structure: Callable[[str], bool],
) -> SideState:
    """A side of a space battle: its ships (and carried ground forces) in the space area; its
    structures (``units``) and ``planet_units`` (ground forces only) on the system's planets,
    taken as one area; damaged units in space first."""
    for unit in spec.planet_units:
        if not is_ground_force(unit):
            raise ScenarioError(
                f"{where}.planet_units.{unit}",
                "only ground forces go here; PDS and space docks go in units",
            )
    in_space = {u: n for u, n in spec.units.items() if not is_structure(u)}
    on_planets = {u: n for u, n in spec.units.items() if is_structure(u)}
    for unit, count in spec.planet_units.items():
        on_planets[unit] = on_planets.get(unit, 0) + count
    damaged_space = {u: min(n, in_space[u]) for u, n in spec.damaged.items() if u in in_space}
    damaged_planet = {
        u: min(n - damaged_space.get(u, 0), on_planets.get(u, 0))
        for u, n in spec.damaged.items()
        if u in on_planets
    }
    return SideState(forces(in_space, damaged_space), (forces(on_planets, damaged_planet),))
