"""SPACE CANNON (abilities/space_cannon.py): each unit with the ability rolls its dice, in space
cannon offense at the opponent's ships or in space cannon defense at committed ground forces
(docs/rulings.md R1, R10). Combat-roll modifiers do not apply; space cannon modifiers do (R5).
Unit data from units.toml."""

from __future__ import annotations

from typing import Any

from spacecombat.core.forces import Forces
from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.abilities.space_cannon import cannon_pool
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import invasion, space

A, D = Side.ATTACKER, Side.DEFENDER
SCO, SCD = Roll.SPACE_CANNON_OFFENSE, Roll.SPACE_CANNON_DEFENSE


def setup_of(scenario: dict[str, Any]) -> BattleSetup:
    return build(parse_ti_scenario(scenario))


def defending(defender: dict[str, Any], attacker: dict[str, Any] | None = None) -> BattleSetup:
    return setup_of(invasion(attacker or {"units": "1 carrier, 1 infantry"}, defender))


def test_a_pds_rolls_one_die_hitting_on_6() -> None:
    # units.toml: PDS I has SPACE CANNON 6.
    setup = defending({"units": "1 pds"})
    assert cannon_pool(setup, D, Forces.of({"pds": 1}), SCD).groups == (DiceGroup("pds", 1, 6),)


def test_a_pds_ii_hits_on_5() -> None:
    # units.toml: PDS II has SPACE CANNON 5.
    setup = defending({"units": "1 pds", "upgrades": ["pds"]})
    assert cannon_pool(setup, D, Forces.of({"pds": 1}), SCD).groups == (DiceGroup("pds", 1, 5),)


def test_two_pds_roll_two_dice() -> None:
    setup = defending({"units": "2 pds"})
    assert cannon_pool(setup, D, Forces.of({"pds": 2}), SCD).dice == 2


def test_units_without_space_cannon_roll_nothing() -> None:
    setup = defending({"units": "2 infantry, 1 space_dock"})
    forces = Forces.of({"infantry": 2, "space_dock": 1})
    assert cannon_pool(setup, D, forces, SCD).groups == ()


def test_the_xxcha_flagship_rolls_three_space_cannon_dice() -> None:
    # units.toml: the Xxcha flagship has SPACE CANNON 5 (x3).
    setup = setup_of(space({"units": "1 cruiser"}, {"faction": "xxcha", "units": "1 flagship"}))
    pool = cannon_pool(setup, D, Forces.of({"flagship": 1}), SCO)
    assert pool.groups == (DiceGroup("flagship", 3, 5),)


def test_antimass_deflectors_of_the_target_modify_the_pool() -> None:
    # docs/rulings.md R10: -1 to each SCD die against the Antimass Deflectors owner's units.
    attacker = {"units": "1 carrier, 1 infantry", "technologies": ["antimass_deflectors"]}
    setup = defending({"units": "1 pds"}, attacker)
    [group] = cannon_pool(setup, D, Forces.of({"pds": 1}), SCD).groups
    assert group.hit_on == 7


def test_combat_roll_modifiers_do_not_reach_space_cannon() -> None:
    # docs/rulings.md R5: Unrelenting (+1 to combat rolls) leaves space cannon rolls alone.
    setup = setup_of(space({"units": "1 cruiser"}, {"faction": "sardakk", "units": "1 pds"}))
    [group] = cannon_pool(setup, D, Forces.of({"pds": 1}), SCO).groups
    assert group.modifier == 0
