"""Valkyrie Armor (Sardakk N'orr racial technology; docs/rulings.md 27S-10; PC_Twi r_Norr.cpp
e_NorrValkyrieArmor): at the end of each invasion combat round the holder rolls a die per
casualty it took that round; each 10 makes the opponent take a casualty at once.

Dice: in an exchange the attacker rolls before the defender; Valkyrie Armor's dice after the
round's casualties."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import invasion_of_a

SARDAKK = {"faction": "sardakk", "technologies": ["valkyrie_armor"]}


def test_a_ten_for_the_casualty_taken_destroys_a_defender() -> None:
    """Round 1: the ground forces 1, 1 (Sardakk: 7+); the defender's 8 (hit): one attacker
    ground force is lost. Valkyrie Armor: one die, 10: the defender's ground force is
    destroyed, the planet is taken."""
    played = run(
        invasion_of_a({"carrier": 1, "ground_force": 2}, {"ground_force": 1}, a=SARDAKK),
        [1, 1, 8, 10],
    )
    assert [r["player"] for r in rolls(played, "valkyrie_armor")] == ["attacker"]
    gone = events(played, "unit_destroyed", cause="Valkyrie Armor")
    assert [(e["player"], e["unit"]) for e in gone] == [("defender", "ground_force")]
    assert played.outcome["planet_taken"] is True


def test_no_roll_without_a_casualty() -> None:
    """Round 1: 7 (hit); 1: no casualty, no Valkyrie die."""
    played = run(
        invasion_of_a({"carrier": 1, "ground_force": 1}, {"ground_force": 1}, a=SARDAKK), [7, 1]
    )
    assert rolls(played, "valkyrie_armor") == []


def test_exact_odds_a_ground_force_duel() -> None:
    """Hand-derived. The Sardakk ground force hits on 7 (2/5), the defender's on 8 (3/10).
    Per round: attacker only 14/50 (taken), both 6/50 (both destroyed; the Valkyrie die finds
    nobody left), defender only 9/50 (the Valkyrie die: a 10, 1/10, takes the defender too:
    both destroyed), neither 21/50 (again). Taken 14/29; both destroyed (6/50 + 9/500) /
    (29/50) = 69/290; kept 81/290."""
    report = odds(
        invasion_of_a({"carrier": 1, "ground_force": 1}, {"ground_force": 1}, a=SARDAKK),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(14, 29),
        Fraction(69, 290),
        Fraction(81, 290),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = invasion_of_a(
        {"carrier": 2, "ground_force": 3, "mechanized_unit": 1},
        {"ground_force": 3},
        a=SARDAKK,
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
