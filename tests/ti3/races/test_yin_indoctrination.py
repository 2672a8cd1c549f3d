"""The Yin Brotherhood's Indoctrination (wiki.omf2097.com joneirik:rpg:ti3_races: "when
attacker, roll a die before ground combat. On 5+, enemy loses one GF and you gain one"; PC_Twi
r_Yin.cpp; docs/rulings.md 27R-19), with Fanaticism (tests/ti3/races/test_fanaticism.py). Its
space-battle sacrifice: tests/ti3/races/test_yin_sacrifice.py (27S-15)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, rolls, run, survivors
from tests.ti3.effects import invasion, space

YIN = {"faction": "yin"}


def test_a_5_converts_a_ground_force() -> None:
    """Indoctrination 5: the defender's only ground force becomes the Yin's: no combat is
    fought, the planet is taken."""
    played = run(
        invasion({"units": {"ground_force": 1}, **YIN}, {"units": {"ground_force": 1}}), [5]
    )
    assert rolls(played, "indoctrination")
    assert events(played, "ground_forces_converted", count=1)
    assert played.outcome["result"] == "attacker_win"
    assert survivors(played, "attacker", where="planet") == {"ground_force": 2}


def test_a_4_converts_none() -> None:
    """Indoctrination 4; then round 1: ground force 8; ground force 1."""
    played = run(
        invasion({"units": {"ground_force": 1}, **YIN}, {"units": {"ground_force": 1}}), [4, 8, 1]
    )
    assert events(played, "ground_forces_converted", count=0)
    assert played.outcome["result"] == "attacker_win"


def test_not_when_defending() -> None:
    """Only the attacking Yin: round 1 straight away (ground force 8; ground force 1)."""
    played = run(
        invasion({"units": {"ground_force": 1}}, {"units": {"ground_force": 1}, **YIN}), [8, 1]
    )
    assert not rolls(played, "indoctrination")


def test_mechanized_units_are_immune() -> None:
    """A lone mechanized unit cannot be converted: no die is rolled. Round 1: ground force 8
    (sustained); mechanized unit 1, 1 (two dice: 27S-12); round 2: 8 (destroyed); 1, 1."""
    played = run(
        invasion({"units": {"ground_force": 1}, **YIN}, {"units": {"mechanized_unit": 1}}),
        [8, 1, 1, 8, 1, 1],
    )
    assert not rolls(played, "indoctrination")


def test_odds_of_one_against_one() -> None:
    """Indoctrination wins at once with 3/5; else ground forces at 8 (3/10 each): attacker
    alone 21/100, defender alone 21/100, both 9/100, so 7/17, 7/17, 3/17 (both destroyed:
    the defender keeps the planet). Won 3/5 + 2/5 * 7/17 = 65/85 = 13/17; lost 14/85; both
    destroyed 6/85."""
    report = odds(
        invasion({"units": {"ground_force": 1}, **YIN}, {"units": {"ground_force": 1}}),
        fractions=True,
    )
    assert (report.attacker_win, report.defender_win, report.draw) == (
        Fraction(13, 17),
        Fraction(14, 85),
        Fraction(6, 85),
    )


def test_a_space_battle_without_one_is_played() -> None:
    """A Yin dreadnought has nothing to sacrifice. Round 1: 5; cruiser 1."""
    played = run(space({"units": {"dreadnought": 1}, **YIN}, {"units": {"cruiser": 1}}), [5, 1])
    assert played.outcome["result"] == "attacker_win"
