"""Checks of TI3 scenarios: per-planet units and damage are checked like a side's; what a
zero-count landing means; damaged landing units; the value of a Shock Troop in the losses."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from spacecombat.core.forces import Status
from spacecombat.resolver import resolve
from spacecombat.rulesets import battle, parse_scenario


def _invasion(attacker: dict[str, Any], planet: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": attacker,
        "defender": {},
        "planets": [{"name": "P", **planet}],
        **extra,
    }


@pytest.mark.parametrize(
    ("planet", "field"),
    [
        ({"defender": {"mechanized_unit": 1}, "damaged": {"mechanized_unit": 3}}, "damaged"),
        ({"defender": {"ground_force": 1}, "damaged": {"ground_force": 1}}, "damaged"),
        ({"defender": {"ground_force": 1}, "damaged": {"mechanized_unit": 1}}, "damaged"),
        ({"defender": {"shock_troop": 1, "ground_force": 1}}, "defender.shock_troop"),
        ({"defender": {"infantry": 1}}, "defender.infantry"),
    ],
)
def test_planet_units_and_damage_are_checked(planet: dict[str, Any], field: str) -> None:
    scenario = _invasion({"units": {"carrier": 1, "ground_force": 2}}, planet)
    with pytest.raises(ScenarioError) as caught:
        battle(parse_scenario(scenario))
    assert caught.value.field.startswith("planets[0].")
    assert field in caught.value.field


def test_a_zero_count_commit_is_no_invasion_for_dreadnought_bombardment() -> None:
    """T12: dreadnoughts bombard only where an invasion follows; ``commit: {ground_force: 0}``
    lands nobody, so naming the dreadnought is refused as with an empty commit."""
    scenario = _invasion(
        {"units": {"dreadnought": 1, "carrier": 1, "ground_force": 1}},
        {
            "defender": {"ground_force": 2},
            "commit": {"ground_force": 0},
            "bombarded_by": {"dreadnought": 1},
        },
    )
    with pytest.raises(ScenarioError, match="only war suns"):
        battle(parse_scenario(scenario))


def test_a_damaged_mechanized_unit_lands_damaged() -> None:
    scenario = {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {
            "units": {"carrier": 1, "mechanized_unit": 1},
            "damaged": {"mechanized_unit": 1},
        },
        "defender": {"units": {"ground_force": 1}},
    }
    start = resolve(scenario, seed=1).events[1]
    assert start["attacker"] == {
        "space": [{"unit": "carrier", "count": 1}],
        "planets": [[{"unit": "mechanized_unit", "count": 1, "status": "damaged"}]],
    }


def test_a_promoted_shock_troop_is_no_loss() -> None:
    """T13: a Shock Troop is a ground force promoted: it is valued as one, so a battle in
    which nobody dies costs nothing however many are promoted."""
    scenario = {
        "ruleset": "ti3",
        "battle": "invasion",
        "options": {"shock_troops": True},
        "attacker": {"units": {"carrier": 1, "ground_force": 4}},
        "defender": {"units": {"ground_force": 3, "shock_troop": 1}},
    }
    process = battle(parse_scenario(scenario))
    start = process.start().state
    promoted = start.defender.planet(0).remove("ground_force", Status.UNDAMAGED).add("shock_troop")
    defender = start.defender.with_planet(0, promoted)
    outcome = {"defender": defender.to_json(), "attacker": start.attacker.to_json()}
    assert process.losses(outcome, "defender") == 0.0
    assert odds(scenario).expected_losses["defender"] > 0


@pytest.mark.parametrize(
    ("extra", "side", "field"),
    [
        ({}, {"leaders": []}, "attacker.leaders"),
        ({}, {"trade_goods": 2}, "attacker.trade_goods"),
        ({}, {"conditions": ["relic_fragment"]}, "attacker.conditions"),
        ({"system": {"features": ["mecatol_rex"]}}, {}, "system.features"),
    ],
)
def test_ti4_card_keys_are_refused_in_ti3(
    extra: dict[str, Any], side: dict[str, Any], field: str
) -> None:
    """Cards other than action cards, purses, conditions and system features are
    TI4 keys: TI3 refuses them by name rather than ignore them (issue 14). (TI3 action cards and
    ``policy.play`` are TI3 keys since issue 27: tests/ti3/cards/; ``system.wormholes`` since
    27S-33: tests/ti3/races/test_dimensional_splicers.py; ``laws`` and ``elected`` since 27Z:
    tests/ti3/laws/.)"""
    scenario = {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": {"units": {"cruiser": 1}, **side},
        "defender": {"units": {"cruiser": 1}},
        **extra,
    }
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    assert error.value.field == field
    assert "TI4" in error.value.message
