"""Recheck (27S-38) with Spec Ops Training (27S-35): a Sol invasion combat roll is made group
by group, each group's 1s re-rolled at once, then the Recheck holders asked; the die Recheck
re-rolls is not re-rolled again on a 1 (docs/rulings.md 27S-41).

Dice: in an exchange the attacker rolls before the defender; a group's 1s are re-rolled
after it, then Recheck's die."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, run
from tests.ti3.effects import invasion, invasion_faces

SOL = {"faction": "sol", "technologies": ["spec_ops_training"], "action_cards": ["recheck"]}


def landing(units: dict[str, int], defender: dict[str, int], **extra: Any) -> dict[str, Any]:
    return invasion({"units": {"carrier": 1, **units}, **SOL}, {"units": defender}, **extra)


def test_the_1_rerolled_then_the_miss_rechecked() -> None:
    """Round 1: the ground force 1, re-rolled (Spec Ops Training): 2 (a miss); Recheck: 8 (a
    hit); the defender 1."""
    played = run(landing({"ground_force": 1}, {"ground_force": 1}), [1, 2, 8, 1])
    assert invasion_faces(played) == [[1], [2], [8], [1]]
    assert played.outcome["planet_taken"] is True


def test_a_1_on_the_rechecked_die_is_kept() -> None:
    """Round 1: 4 (a miss, not a 1); Recheck: 1 (kept: not re-rolled again); the defender 8
    (a hit): the planet is kept."""
    played = run(landing({"ground_force": 1}, {"ground_force": 1}), [4, 1, 8])
    assert invasion_faces(played) == [[4], [1], [8]]
    assert played.outcome["planet_taken"] is False


def test_exact_odds_a_ground_force_duel() -> None:
    """Hand-derived (per 10000). The Sol ground force hits with 33/100 (3/10 and a 1's
    re-roll, 27S-35), the defender's with 3/10; the stock holder plays Recheck at the first
    chance: its own miss, else the defender's hit.
    - Round 1 the Sol die hits (3300): the card kept; the defender hits (3/10), re-rolled:
      hits again (3/10: both destroyed, 297) or not (attacker, 693); the defender misses
      (attacker, 2310).
    - It misses (6700), re-rolled (3/10, no second Spec Ops re-roll): a hit (2010), then the
      defender hits (draw 603) or not (attacker 1407); a miss (4690), the defender hits
      (defender 1407) or not (3283), then the plain duel of 27S-35 (77/177, 33/177, 67/177)."""
    rest = Fraction(3283, 10000)
    expected = (
        Fraction(693 + 2310 + 1407, 10000) + rest * Fraction(77, 177),
        Fraction(297 + 603, 10000) + rest * Fraction(33, 177),
        Fraction(1407, 10000) + rest * Fraction(67, 177),
    )
    report = odds(landing({"ground_force": 1}, {"ground_force": 1}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == expected


def test_with_the_shock_troops_option_the_same_odds() -> None:
    """27T-18: with the Shock Troops option the ground force's 1s are re-rolled inside its
    roll (27T-11) and its natural 10s counted; one ground force each, nobody is promoted (one
    must stay regular): the odds of the duel above."""
    rest = Fraction(3283, 10000)
    expected = (
        Fraction(693 + 2310 + 1407, 10000) + rest * Fraction(77, 177),
        Fraction(297 + 603, 10000) + rest * Fraction(33, 177),
        Fraction(1407, 10000) + rest * Fraction(67, 177),
    )
    scenario = landing({"ground_force": 1}, {"ground_force": 1}, options={"shock_troops": True})
    report = odds(scenario, fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == expected
    # round 1: 1, re-rolled 2 (one roll); Recheck: 8 (a hit); the defender 1
    played = run(scenario, [1, 2, 8, 1])
    assert invasion_faces(played) == [[1, 2], [8], [1]]
    assert played.outcome["planet_taken"] is True


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = landing(
        {"ground_force": 2, "mechanized_unit": 1},
        {"ground_force": 2, "pds": 1},
    )
    scenario["defender"]["action_cards"] = ["recheck"]
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
