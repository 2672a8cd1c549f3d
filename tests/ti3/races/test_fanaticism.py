"""Fanaticism (Yin racial technology; wiki.omf2097.com joneirik:rpg:ti3_races: "use your
racial ability twice each ground combat"; PC_Twi r_Yin.cpp: two tries): two Indoctrination
dice, each 5 or more converting a ground force (docs/rulings.md 27R-19)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, run
from tests.ti3.effects import invasion

YIN = {"faction": "yin", "technologies": ["fanaticism"]}


def test_two_dice_convert_two() -> None:
    """Indoctrination 5, 9: both defending ground forces become the Yin's."""
    played = run(
        invasion({"units": {"ground_force": 1}, **YIN}, {"units": {"ground_force": 2}}), [5, 9]
    )
    assert events(played, "ground_forces_converted", count=2)
    assert played.outcome["result"] == "attacker_win"


def test_odds_of_one_against_one() -> None:
    """At least one 5+ in two dice: 1 - (2/5)^2 = 21/25 wins at once; else the 7/17, 7/17,
    3/17 duel of ground forces (tests/ti3/races/test_yin_indoctrination.py). Won 21/25 +
    4/25 * 7/17 = 385/425 = 77/85; lost 28/425; both destroyed 12/425."""
    report = odds(
        invasion({"units": {"ground_force": 1}, **YIN}, {"units": {"ground_force": 1}}),
        fractions=True,
    )
    assert (report.attacker_win, report.defender_win, report.draw) == (
        Fraction(77, 85),
        Fraction(28, 425),
        Fraction(12, 425),
    )
