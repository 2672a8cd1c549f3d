"""Mechanized Units (Shards of the Throne; ti3-facts.md 8; PC_Twi Defines.cpp defStat MU: battle
6, 2 dice, 2 hit points, cost 2, 4 units): a ground unit with SUSTAIN DAMAGE that fights in
invasion combat and is immune to what names ground forces (bombardment, PDS fire, technologies).
Its dice are the rule option ``mechanized_unit_dice`` (default 2, as PC_Twi and a second TI3
program give it: docs/rulings.md 27S-12; 1 as an option)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from spacecombat.rulesets.ti3 import rules
from tests.helpers import events, run
from tests.ti3.effects import at_least_one, invasion, two_lives_duel


def test_card() -> None:
    card = rules.load().units["mechanized_unit"]
    assert card.combat is not None
    assert (card.cost, card.combat.hit, card.sustain_damage, card.is_ground_force) == (
        2,
        6,
        True,
        True,
    )


def test_it_sustains_a_hit_in_invasion_combat() -> None:
    """Round 1: mechanized unit 1, 1; the defender's ground force 8 (sustained). Round 2: 6,
    1 (the ground force destroyed); 1."""
    played = run(
        invasion({"units": {"mechanized_unit": 1}}, {"units": {"ground_force": 1}}),
        [1, 1, 8, 6, 1, 1],
    )
    assert events(played, "damage_sustained", player="attacker", unit="mechanized_unit")
    assert played.outcome["result"] == "attacker_win"


def test_two_dice_by_default() -> None:
    """Round 1: 1, 6 (a hit); the ground force 1."""
    played = run(
        invasion({"units": {"mechanized_unit": 1}}, {"units": {"ground_force": 1}}),
        [1, 6, 1],
    )
    assert played.outcome["result"] == "attacker_win"


def test_one_die_with_the_option() -> None:
    """mechanized_unit_dice 1: round 1: 6 (a hit); the ground force 1."""
    played = run(
        invasion(
            {"units": {"mechanized_unit": 1}},
            {"units": {"ground_force": 1}},
            options={"mechanized_unit_dice": 1},
        ),
        [6, 1],
    )
    assert played.outcome["result"] == "attacker_win"


def test_gen_synthesis_does_not_reach_it() -> None:
    """GEN Synthesis names ground forces: the mechanized unit still needs 6 (round 1: 5, 5
    miss; ground force 1; round 2: 6, 1; 1)."""
    played = run(
        invasion(
            {"units": {"mechanized_unit": 1}, "technologies": ["gen_synthesis"]},
            {"units": {"ground_force": 1}},
        ),
        [5, 5, 1, 6, 1, 1],
    )
    assert played.outcome["result"] == "attacker_win"


def test_odds_of_one_die_against_a_ground_force() -> None:
    """``mechanized_unit_dice: 1``. One die at 6 (1/2), two lives, against a ground force (8+:
    3/10): the two-lives duel (tests/ti3/effects.py): r = 7/20, win 10/13 + 3/13 * 7/13 =
    151/169, both destroyed 9/169, lost 9/169."""
    report = odds(
        invasion(
            {"units": {"mechanized_unit": 1}},
            {"units": {"ground_force": 1}},
            options={"mechanized_unit_dice": 1},
        ),
        fractions=True,
    )
    expected = two_lives_duel(Fraction(1, 2), Fraction(3, 10))
    assert expected == (Fraction(151, 169), Fraction(9, 169), Fraction(9, 169))
    assert (report.attacker_win, report.draw, report.defender_win) == expected


def test_odds_with_two_dice_by_default() -> None:
    """Two dice at 6: a = 3/4; r = 7/40: win 10/11 + 1/11 * 7/11 = 117/121, both destroyed
    3/121, lost 1/121."""
    report = odds(
        invasion({"units": {"mechanized_unit": 1}}, {"units": {"ground_force": 1}}),
        fractions=True,
    )
    expected = two_lives_duel(at_least_one(2, Fraction(1, 2)), Fraction(3, 10))
    assert expected == (Fraction(117, 121), Fraction(3, 121), Fraction(1, 121))
    assert (report.attacker_win, report.draw, report.defender_win) == expected
