"""Fragile (Universities of Jol-Nar; abilities/fragile.py): -1 to each of the owner's combat
rolls, in space and ground combat; not to unit-ability rolls (ti4-combat-effects.md §3;
docs/rulings.md R5)."""

from __future__ import annotations

from typing import Any

from spacecombat.core.engine import Played
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.abilities.fragile import Fragile
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import invasion, rolls, run, space
from tests.ti4.scenarios import space_over_capacity

A, D = Side.ATTACKER, Side.DEFENDER
OWNED = Fragile(A)
JOLNAR = {"faction": "jolnar"}
SETUP = build(parse_ti_scenario(space({**JOLNAR, "units": "1 cruiser"}, {"units": "1 cruiser"})))


def first_hit_on(played: Played[BattleState], purpose: str, player: str) -> Any:
    roll = next(r for r in rolls(played, purpose) if r["player"] == player)
    groups = roll["groups"]
    assert isinstance(groups, list)
    return groups[0]["hit_on"]


# --- handler level ------------------------------------------------------------------------------


def test_minus_one_to_space_combat_rolls() -> None:
    assert OWNED.roll_modifier(SETUP, A, Roll.SPACE_COMBAT, "cruiser") == -1


def test_minus_one_to_ground_combat_rolls() -> None:
    assert OWNED.roll_modifier(SETUP, A, Roll.GROUND_COMBAT, "infantry") == -1


def test_nothing_for_the_opponent() -> None:
    assert OWNED.roll_modifier(SETUP, D, Roll.GROUND_COMBAT, "infantry") == 0


def test_nothing_for_unit_ability_rolls() -> None:
    others = (
        Roll.ANTI_FIGHTER_BARRAGE,
        Roll.SPACE_CANNON_OFFENSE,
        Roll.SPACE_CANNON_DEFENSE,
        Roll.BOMBARDMENT,
    )
    assert [OWNED.roll_modifier(SETUP, A, roll, "destroyer") for roll in others] == [0, 0, 0, 0]


# --- procedure level ----------------------------------------------------------------------------


def test_a_jolnar_cruiser_hits_on_8() -> None:
    # Cruiser I has combat 7 (units.toml).
    played = run(space({**JOLNAR, "units": "1 cruiser"}, {"units": "1 cruiser"}), [8, 1])
    assert first_hit_on(played, "space_combat", "attacker") == 8


def test_a_seven_misses_for_a_jolnar_cruiser() -> None:
    played = run(space({**JOLNAR, "units": "1 cruiser"}, {"units": "1 cruiser"}), [7, 7])
    assert played.outcome["winner"] == "defender"


def test_jolnar_infantry_hit_on_9_in_ground_combat() -> None:
    # Infantry I has combat 8 (units.toml).
    scenario = invasion({"units": "1 carrier, 1 infantry"}, {**JOLNAR, "units": "1 infantry"})
    played = run(scenario, [1, 9])
    assert first_hit_on(played, "ground_combat", "defender") == 9


def test_jolnar_destroyers_anti_fighter_barrage_is_unmodified() -> None:
    # Destroyer I has ANTI-FIGHTER BARRAGE 9 (x2) (units.toml).
    scenario = space_over_capacity({**JOLNAR, "units": "1 destroyer"}, {"units": "1 fighter"})
    played = run(scenario, [1, 1, 10, 1])
    assert first_hit_on(played, "anti_fighter_barrage", "attacker") == 9


def test_a_jolnar_pds_space_cannon_defense_is_unmodified() -> None:
    # PDS I has SPACE CANNON 6 (units.toml).
    scenario = invasion({"units": "1 carrier, 1 infantry"}, {**JOLNAR, "units": "1 pds"})
    played = run(scenario, [6])
    assert first_hit_on(played, "space_cannon_defense", "defender") == 6
