"""PLANETARY SHIELD (abilities/planetary_shield.py): a planet holding a unit with the ability
cannot be bombarded, unless an opposing war sun in the system takes the shield away
(docs/rulings.md R3)."""

from __future__ import annotations

from spacecombat.core.forces import Forces
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.planetary_shield import is_shielded, shields_lost
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import invasion

D = Side.DEFENDER
SETUP = build(
    parse_ti_scenario(
        invasion({"units": "1 war_sun, 1 dreadnought"}, {"units": "1 infantry, 1 pds"})
    )
)
DREADNOUGHT = Forces.of({"dreadnought": 1})
WAR_SUN = Forces.of({"war_sun": 1})


def test_a_pds_shields_its_planet() -> None:
    # units.toml: PDS has PLANETARY SHIELD.
    assert is_shielded(SETUP, D, Forces.of({"infantry": 1, "pds": 1}), DREADNOUGHT)


def test_a_planet_without_a_shield_unit_is_not_shielded() -> None:
    assert not is_shielded(SETUP, D, Forces.of({"infantry": 2, "mech": 1}), DREADNOUGHT)


def test_a_space_dock_gives_no_shield() -> None:
    # units.toml: Space Dock has no PLANETARY SHIELD.
    assert not is_shielded(SETUP, D, Forces.of({"space_dock": 1}), DREADNOUGHT)


def test_a_war_sun_in_the_system_takes_the_shield_away() -> None:
    # docs/rulings.md R3: other players' units in a war sun's system lose PLANETARY SHIELD.
    assert not is_shielded(SETUP, D, Forces.of({"pds": 1}), WAR_SUN.plus(DREADNOUGHT))


def test_a_war_sun_makes_shields_lost() -> None:
    assert shields_lost(SETUP, D, WAR_SUN)


def test_a_dreadnought_does_not_make_shields_lost() -> None:
    assert not shields_lost(SETUP, D, DREADNOUGHT)


def test_a_damaged_war_sun_still_takes_the_shield_away() -> None:
    # The war sun's ability does not depend on damage (units.toml).
    damaged = Forces.of({"war_sun": 1}, {"war_sun": 1})
    assert not is_shielded(SETUP, D, Forces.of({"pds": 1}), damaged)
