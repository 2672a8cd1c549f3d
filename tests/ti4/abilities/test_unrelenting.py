"""Unrelenting (Sardakk N'orr; abilities/unrelenting.py): +1 to each of the owner's combat rolls,
in space and ground combat; not to unit-ability rolls such as anti-fighter barrage, space cannon
or bombardment (ti4-combat-effects.md §3; docs/rulings.md R5)."""

from __future__ import annotations

from typing import Any

from spacecombat.core.engine import Played
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.abilities.unrelenting import Unrelenting
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import invasion, rolls, run, space
from tests.ti4.scenarios import space_over_capacity

A, D = Side.ATTACKER, Side.DEFENDER
OWNED = Unrelenting(A)
SARDAKK = {"faction": "sardakk"}
SETUP = build(parse_ti_scenario(space({**SARDAKK, "units": "1 cruiser"}, {"units": "1 cruiser"})))


def first_hit_on(played: Played[BattleState], purpose: str, player: str) -> Any:
    roll = next(r for r in rolls(played, purpose) if r["player"] == player)
    groups = roll["groups"]
    assert isinstance(groups, list)
    return groups[0]["hit_on"]


# --- handler level ------------------------------------------------------------------------------


def test_plus_one_to_space_combat_rolls() -> None:
    assert OWNED.roll_modifier(SETUP, A, Roll.SPACE_COMBAT, "cruiser") == 1


def test_plus_one_to_ground_combat_rolls() -> None:
    assert OWNED.roll_modifier(SETUP, A, Roll.GROUND_COMBAT, "infantry") == 1


def test_nothing_for_the_opponent() -> None:
    assert OWNED.roll_modifier(SETUP, D, Roll.SPACE_COMBAT, "cruiser") == 0


def test_nothing_for_unit_ability_rolls() -> None:
    others = (
        Roll.ANTI_FIGHTER_BARRAGE,
        Roll.SPACE_CANNON_OFFENSE,
        Roll.SPACE_CANNON_DEFENSE,
        Roll.BOMBARDMENT,
    )
    assert [OWNED.roll_modifier(SETUP, A, roll, "destroyer") for roll in others] == [0, 0, 0, 0]


def test_the_sardakk_faction_brings_the_handler() -> None:
    assert [(h.id, h.owner) for h in SETUP.handlers] == [("unrelenting", A)]


# --- procedure level ----------------------------------------------------------------------------


def test_a_sardakk_cruiser_hits_on_6() -> None:
    # Cruiser I has combat 7 (units.toml).
    played = run(space({**SARDAKK, "units": "1 cruiser"}, {"units": "1 cruiser"}), [6, 1])
    assert first_hit_on(played, "space_combat", "attacker") == 6


def test_the_opponents_cruiser_still_hits_on_7() -> None:
    played = run(space({**SARDAKK, "units": "1 cruiser"}, {"units": "1 cruiser"}), [6, 1])
    assert first_hit_on(played, "space_combat", "defender") == 7


def test_sardakk_infantry_hit_on_7_in_ground_combat() -> None:
    # Infantry I has combat 8 (units.toml).
    scenario = invasion({**SARDAKK, "units": "1 carrier, 1 infantry"}, {"units": "1 infantry"})
    played = run(scenario, [7, 1])
    assert first_hit_on(played, "ground_combat", "attacker") == 7


def test_sardakk_destroyers_anti_fighter_barrage_is_unmodified() -> None:
    # Destroyer I has ANTI-FIGHTER BARRAGE 9 (x2) (units.toml).
    scenario = space_over_capacity({**SARDAKK, "units": "1 destroyer"}, {"units": "1 fighter"})
    played = run(scenario, [1, 1, 8, 1])
    assert first_hit_on(played, "anti_fighter_barrage", "attacker") == 9


def test_a_sardakk_pds_space_cannon_is_unmodified() -> None:
    # PDS I has SPACE CANNON 6 (units.toml).
    scenario = space({"units": "1 cruiser"}, {**SARDAKK, "units": "1 cruiser, 1 pds"})
    played = run(scenario, [1, 1, 6])
    assert first_hit_on(played, "space_cannon_offense", "defender") == 6


def test_a_sardakk_dreadnoughts_bombardment_is_unmodified() -> None:
    # The Sardakk dreadnought has BOMBARDMENT 4 (x2) (units.toml).
    scenario = invasion({**SARDAKK, "units": "1 dreadnought"}, {"units": "2 infantry"})
    played = run(scenario, [4, 3])
    assert first_hit_on(played, "bombardment", "attacker") == 4
