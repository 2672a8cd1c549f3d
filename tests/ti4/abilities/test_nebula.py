"""Nebula (abilities/nebula.py): in a space combat in a nebula the defender applies +1 to its
combat rolls; not to ground combat, anti-fighter barrage, space cannon or bombardment
(docs/rulings.md R11)."""

from __future__ import annotations

from typing import Any

from spacecombat.core.engine import Played
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.abilities.nebula import Nebula
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import invasion, rolls, run, space
from tests.ti4.scenarios import space_over_capacity

A, D = Side.ATTACKER, Side.DEFENDER
IN_NEBULA = {"system": {"anomaly": "nebula"}}
NEBULA = Nebula(None)
SETUP = build(parse_ti_scenario(space({"units": "1 cruiser"}, {"units": "1 cruiser"}, **IN_NEBULA)))


def first_hit_on(played: Played[BattleState], purpose: str, player: str) -> Any:
    roll = next(r for r in rolls(played, purpose) if r["player"] == player)
    groups = roll["groups"]
    assert isinstance(groups, list)
    return groups[0]["hit_on"]


# --- handler level ------------------------------------------------------------------------------


def test_the_defender_gets_plus_one_in_space_combat() -> None:
    assert NEBULA.roll_modifier(SETUP, D, Roll.SPACE_COMBAT, "cruiser") == 1


def test_the_attacker_gets_nothing() -> None:
    assert NEBULA.roll_modifier(SETUP, A, Roll.SPACE_COMBAT, "cruiser") == 0


def test_no_bonus_in_ground_combat() -> None:
    assert NEBULA.roll_modifier(SETUP, D, Roll.GROUND_COMBAT, "infantry") == 0


def test_no_bonus_to_unit_ability_rolls() -> None:
    others = (
        Roll.ANTI_FIGHTER_BARRAGE,
        Roll.SPACE_CANNON_OFFENSE,
        Roll.SPACE_CANNON_DEFENSE,
        Roll.BOMBARDMENT,
    )
    assert [NEBULA.roll_modifier(SETUP, D, roll, "pds") for roll in others] == [0, 0, 0, 0]


def test_the_nebula_is_in_play_only_in_a_nebula_system() -> None:
    plain = build(parse_ti_scenario(space({"units": "1 cruiser"}, {"units": "1 cruiser"})))
    assert ([h.id for h in SETUP.handlers], plain.handlers) == (["nebula"], ())


# --- procedure level ----------------------------------------------------------------------------


def test_a_defending_cruiser_hits_on_6_in_a_nebula() -> None:
    # Cruiser I has combat 7 (units.toml).
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser"}, **IN_NEBULA), [1, 6])
    assert first_hit_on(played, "space_combat", "defender") == 6


def test_an_attacking_cruiser_still_hits_on_7_in_a_nebula() -> None:
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser"}, **IN_NEBULA), [1, 6])
    assert first_hit_on(played, "space_combat", "attacker") == 7


def test_defending_infantry_get_no_bonus_in_ground_combat_in_a_nebula() -> None:
    # Infantry I has combat 8 (units.toml).
    scenario = invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 infantry"}, **IN_NEBULA)
    played = run(scenario, [1, 8])
    assert first_hit_on(played, "ground_combat", "defender") == 8


def test_defending_destroyers_get_no_bonus_to_anti_fighter_barrage_in_a_nebula() -> None:
    # Destroyer I has ANTI-FIGHTER BARRAGE 9 (x2) and combat 9 (units.toml).
    scenario = space_over_capacity({"units": "1 fighter"}, {"units": "1 destroyer"}, **IN_NEBULA)
    played = run(scenario, [1, 1, 1, 8])
    assert first_hit_on(played, "anti_fighter_barrage", "defender") == 9


def test_a_defending_pds_gets_no_bonus_to_space_cannon_in_a_nebula() -> None:
    scenario = space({"units": "1 cruiser"}, {"units": "1 cruiser, 1 pds"}, **IN_NEBULA)
    played = run(scenario, [1, 1, 6])
    assert first_hit_on(played, "space_cannon_offense", "defender") == 6
