"""Steps from a scenario to a battle's fixed facts that every TI ruleset takes alike: naming a
field's path, finding a side's part of the scenario, the stock policy's configuration from the
layered ``policy`` keys and its common checks, and where an invasion's units may stand.

What is checked against what (unit types, adjacent systems) and each ruleset's own keys stay
in the ruleset's ``setup.py``; these steps take them as arguments. (They read the scenario's
models, so they live above ``core/`` and ``scenario/``, beside ``rulesets/options.py``.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import shown
from spacecombat.core.policies import DEFAULT_CASUALTY_ORDER, PolicyConfig
from spacecombat.core.rulesdata import UnitCards
from spacecombat.core.sides import Side
from spacecombat.rulesets.options import is_plain_key
from spacecombat.scenario.schema import PolicySpec, Scenario, SideSpec


def field_key(name: str) -> str:
    """A scenario key as part of a field's path: as written when it is a short name, else
    quoted and cut."""
    return name if is_plain_key(name) else shown(name)


def side_spec(scenario: Scenario, side: Side) -> SideSpec:
    """The part of the scenario that gives ``side``'s forces and choices."""
    return scenario.attacker if side is Side.ATTACKER else scenario.defender


def merged_policy(
    scenario: Scenario, spec: SideSpec, where: str, check: Callable[[PolicySpec, str], None]
) -> PolicySpec:
    """A side's policy keys: the scenario's shared ``policy``, overlaid with the side's own
    (its field is ``where``); each layer is checked under its own name by ``check(layer,
    name)`` first."""
    merged: dict[str, object] = {}
    for name, layer in (("policy", scenario.policy), (where, spec.policy)):
        if layer is not None:
            check(layer, name)
            merged.update({k: v for k, v in layer.model_dump().items() if v is not None})
    return PolicySpec.model_validate(merged)


def policy_config(config: PolicySpec, **ruleset_keys: Any) -> PolicyConfig:
    """The stock policy's switches from a side's policy keys: casualty order, sustain first or
    last, retreat after round N or when outnumbered, where to; plus the ruleset's own
    (``ruleset_keys``)."""
    retreat = config.retreat
    return PolicyConfig(
        casualty_order=tuple(config.casualty_order or DEFAULT_CASUALTY_ORDER),
        sustain=config.sustain or "first",
        retreat_after_round=getattr(retreat, "after_round", None),
        retreat_when_outnumbered=getattr(retreat, "when_outnumbered", None),
        retreat_to=tuple(config.retreat_to or ()),
        play=tuple(
            (card, when if isinstance(when, str) else when.round)
            for card, when in (config.play or {}).items()
        ),
        keep=tuple((unit, count) for unit, count in (config.keep or {}).items() if count),
        **ruleset_keys,
    )


def check_policy_names(
    layer: PolicySpec, where: str, units: Sequence[str], adjacent: Sequence[str]
) -> None:
    """A policy's casualty order and the units it keeps back name only ``units``, and it
    retreats only to ``adjacent`` systems."""
    for i, unit in enumerate(layer.casualty_order or ()):
        if unit not in units:
            raise ScenarioError(
                f"{where}.casualty_order[{i}]",
                f"unknown unit {shown(unit)}; allowed: {', '.join(units)}",
            )
    for unit in layer.keep or {}:
        if unit not in units:
            raise ScenarioError(
                f"{where}.keep.{field_key(unit)}",
                f"unknown unit {shown(unit)}; allowed: {', '.join(units)}",
            )
    for i, name in enumerate(layer.retreat_to or ()):
        if name not in adjacent:
            raise ScenarioError(
                f"{where}.retreat_to[{i}]",
                f"{shown(name)} is not an adjacent system; "
                f"allowed: {', '.join(adjacent) or 'none (system.adjacent lists none)'}",
            )


def check_invasion_places(
    scenario: Scenario,
    attacker: UnitCards,
    defender: UnitCards,
    *,
    attacker_brings: str,
    defender_has: str,
) -> None:
    """Where an invasion's units may be listed: the attacker brings no structures
    (``attacker_brings`` says what it brings) and has no ``planet_units``; the defender's units
    are on the planet, so it has no ships (``defender_has`` lists what it may have), no
    structure that stands in the space area (one with a move value: the Saar's floating
    factories) and no ``planet_units``."""
    att, dfn = scenario.attacker, scenario.defender
    for unit in att.units:
        if attacker.is_structure(unit):
            raise ScenarioError(
                f"attacker.units.{unit}", f"an invasion's attacker brings {attacker_brings}"
            )
    if att.planet_units:
        raise ScenarioError("attacker.planet_units", "not used in an invasion")
    if dfn.planet_units:
        raise ScenarioError(
            "defender.planet_units",
            "in an invasion the defender's units are on the planet: list them in defender.units "
            "or planets[].defender",
        )
    for unit in dfn.units:
        if defender.is_ship(unit):
            raise ScenarioError(
                f"defender.units.{unit}",
                f"an invasion's defender has only units on the planet: {defender_has}",
            )
    placed = [(f"defender.units.{unit}", unit) for unit in dfn.units]
    placed += [
        (f"planets[{i}].defender.{unit}", unit)
        for i, planet in enumerate(scenario.planets or ())
        for unit in planet.defender
    ]
    for where, unit in placed:
        # (an unknown unit is refused by the ruleset's own checks, with the units allowed)
        known = unit in defender.cards
        if known and defender.is_structure(unit) and defender.card(unit).move is not None:
            raise ScenarioError(
                where,
                f"{defender.card(unit).name} stands in the space area, not on a planet: it plays "
                "no part in an invasion, leave it out",
            )
