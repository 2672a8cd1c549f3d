"""Antimass Deflectors (abilities/antimass_deflectors.py): SPACE CANNON rolls against the owner's
units get -1 (ti4-combat-effects.md §1; docs/rulings.md R10), and the owner may retreat into an
asteroid field (ti4-space-combat.md note 2; docs/rulings.md R12)."""

from __future__ import annotations

from typing import Any

from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.antimass_deflectors import AntimassDeflectors
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, rolls, run, space

A, D = Side.ATTACKER, Side.DEFENDER
OWNED = AntimassDeflectors(A)
SETUP = build(
    parse_ti_scenario(
        space({"units": "1 cruiser", "technologies": ["antimass_deflectors"]}, {"units": "1 pds"})
    )
)


def retreat_into_asteroid_field(attacker: dict[str, Any]) -> dict[str, Any]:
    return space(
        {"units": "1 cruiser", "policy": {"retreat": {"after_round": 0}}, **attacker},
        {"units": "1 cruiser"},
        system={
            "adjacent": [{"name": "Field", "anomaly": "asteroid_field", "units": ["attacker"]}]
        },
    )


# --- handler level ------------------------------------------------------------------------------


def test_opponents_space_cannon_offense_gets_minus_one() -> None:
    assert OWNED.roll_modifier(SETUP, D, Roll.SPACE_CANNON_OFFENSE, "pds") == -1


def test_opponents_space_cannon_defense_gets_minus_one() -> None:
    # docs/rulings.md R10: the card speaks of SPACE CANNON against "your units".
    assert OWNED.roll_modifier(SETUP, D, Roll.SPACE_CANNON_DEFENSE, "pds") == -1


def test_the_owners_own_space_cannon_is_not_modified() -> None:
    assert OWNED.roll_modifier(SETUP, A, Roll.SPACE_CANNON_OFFENSE, "pds") == 0


def test_combat_rolls_are_not_modified() -> None:
    assert OWNED.roll_modifier(SETUP, D, Roll.SPACE_COMBAT, "cruiser") == 0


def test_bombardment_is_not_modified() -> None:
    assert OWNED.roll_modifier(SETUP, D, Roll.BOMBARDMENT, "dreadnought") == 0


def test_the_owner_may_retreat_into_an_asteroid_field() -> None:
    assert OWNED.permits_anomaly(A, "asteroid_field")


def test_the_opponent_may_not_retreat_into_an_asteroid_field() -> None:
    assert not OWNED.permits_anomaly(D, "asteroid_field")


def test_it_permits_no_other_anomaly() -> None:
    assert not any(OWNED.permits_anomaly(A, a) for a in ("supernova", "nebula", "gravity_rift"))


# --- procedure level ----------------------------------------------------------------------------


def test_a_pds_firing_space_cannon_offense_at_the_owner_needs_7() -> None:
    # PDS I has SPACE CANNON 6; with -1 a 6 misses.
    played = run(
        space(
            {"units": "1 cruiser", "technologies": ["antimass_deflectors"]},
            {"units": "1 cruiser, 1 pds"},
        ),
        [6, 7, 1],
    )
    [roll] = rolls(played, "space_cannon_offense")
    assert roll["hits"] == 0


def test_with_it_the_owner_retreats_into_an_asteroid_field() -> None:
    played = run(retreat_into_asteroid_field({"technologies": ["antimass_deflectors"]}), [1, 1])
    retreat = played.outcome["retreat"]
    assert isinstance(retreat, dict)
    assert retreat["to"] == "Field"


def test_without_it_no_retreat_into_an_asteroid_field_is_announced() -> None:
    # ti4-space-combat.md note 2 and step 2.3: no eligible system, no announcement.
    played = run(retreat_into_asteroid_field({}), [7, 1])
    assert events(played, "retreat_announced") == []
