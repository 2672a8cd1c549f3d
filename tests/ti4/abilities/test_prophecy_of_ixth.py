"""Prophecy of Ixth (law; abilities/prophecy_of_ixth.py): the elected player's fighters get +1
on combat rolls (ti4-combat-effects.md §7); the scenario names the player (``elected``). Not
their other ships, not the other player, not unit-ability rolls."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import rolls, run, space

A, D = Side.ATTACKER, Side.DEFENDER


def battle(elected: str = "attacker", **attacker: Any) -> dict[str, Any]:
    return space(
        {"units": "1 fighter, 1 carrier", **attacker},
        {"units": "1 fighter, 1 carrier"},
        laws=["prophecy_of_ixth"],
        elected={"prophecy_of_ixth": elected},
    )


def groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


def test_the_elected_players_fighters_hit_one_lower() -> None:
    played = run(battle(), [9, 9, 9, 9], all_dice=False)
    first = rolls(played, "space_combat")[:2]
    attacker = next(r for r in first if r["player"] == "attacker")
    defender = next(r for r in first if r["player"] == "defender")
    hit_on = {g["unit"]: g["hit_on"] for g in groups(attacker)}
    assert hit_on == {"fighter": 8, "carrier": 9}
    assert [g["hit_on"] for g in groups(defender)] == [9, 9]


def test_the_handler_belongs_to_the_elected_player_only() -> None:
    setup = build(parse_ti_scenario(battle(elected="defender")))
    [law] = [h for h in setup.handlers if h.id == "prophecy_of_ixth"]
    assert law.owner is D
    assert law.roll_modifier(setup, D, Roll.SPACE_COMBAT, "fighter") == 1
    assert law.roll_modifier(setup, A, Roll.SPACE_COMBAT, "fighter") == 0
    assert law.roll_modifier(setup, D, Roll.SPACE_COMBAT, "cruiser") == 0
    assert law.roll_modifier(setup, D, Roll.ANTI_FIGHTER_BARRAGE, "fighter") == 0


def test_exact_odds_hand_derived() -> None:
    """1 fighter each, the attacker's hitting on 8 (3/10), the defender's on 9 (2/10). A round
    ends the duel unless both miss (7/10 * 8/10 = 14/25): attacker 3/10 * 8/10 / (11/25) =
    6/11, draw 3/10 * 2/10 / (11/25) = 3/22, defender 7/10 * 2/10 / (11/25) = 7/22. (No
    carriers, so capacity is checked only after the combat: option
    check_capacity_before_battle false, docs/rulings.md R31.)"""
    scenario = space(
        {"units": "1 fighter"},
        {"units": "1 fighter"},
        laws=["prophecy_of_ixth"],
        elected={"prophecy_of_ixth": "attacker"},
        options={"check_capacity_before_battle": False},
    )
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(Fraction(6, 11)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 22)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(7, 22)), abs=1e-12)
