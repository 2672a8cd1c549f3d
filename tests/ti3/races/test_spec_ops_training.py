"""Spec Ops Training (Federation of Sol racial technology, Shattered Empire;
data/technologies.toml; docs/rulings.md 27S-35): "Each time you roll a 1 during Invasion
Combat, you may reroll the die. You must use the second result" (PC_Twi r_Sol.cpp).

Dice: in an exchange the attacker rolls before the defender; with the technology its roll is
made group by group (as the pool lists them: Mechanized Units before ground forces), each
group's 1s re-rolled after it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, run
from tests.ti3.effects import invasion, invasion_faces, space

SOL = {"faction": "sol", "technologies": ["spec_ops_training"]}


def landing(units: dict[str, int], defender: dict[str, int], **extra: Any) -> dict[str, Any]:
    return invasion({"units": {"carrier": 1, **units}, **SOL}, {"units": defender}, **extra)


def test_a_1_is_rerolled_and_the_second_result_kept() -> None:
    """Round 1: the ground force rolls 1, re-rolled: 8 (hit); the defender 1."""
    played = run(landing({"ground_force": 1}, {"ground_force": 1}), [1, 8, 1])
    assert invasion_faces(played) == [[1], [8], [1]]
    assert played.outcome["planet_taken"] is True


def test_only_the_1s_are_rerolled_group_by_group() -> None:
    """Round 1: the Mechanized Unit 1, 6 (the 6 hits; the 1 re-rolled: 2, a miss); the ground
    force 1 (re-rolled: 3, a miss); the defender's two ground forces 1, 1. Round 2 (no 1):
    6, 6; 8; 1 (the attacker's three hits destroy the last defender)."""
    played = run(
        landing({"ground_force": 1, "mechanized_unit": 1}, {"ground_force": 2}),
        [1, 6, 2, 1, 3, 1, 1, 6, 6, 8, 1],
    )
    assert invasion_faces(played) == [[1, 6], [2], [1], [3], [1, 1], [6, 6], [8], [1]]
    assert played.outcome["planet_taken"] is True


def test_no_1_no_reroll() -> None:
    """Round 1: 8 (hit); 1."""
    played = run(landing({"ground_force": 1}, {"ground_force": 1}), [8, 1])
    assert invasion_faces(played) == [[8], [1]]


def test_exact_odds_a_ground_force_duel() -> None:
    """Hand-derived. The Sol ground force hits with 3/10 + 1/10 * 3/10 = 33/100, the
    defender's with 3/10; a round where neither hits (67/100 * 7/10 = 469/1000) repeats:
    taken 231/531 = 77/177, both destroyed 99/531 = 33/177, kept 201/531 = 67/177."""
    report = odds(landing({"ground_force": 1}, {"ground_force": 1}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(77, 177),
        Fraction(33, 177),
        Fraction(67, 177),
    )


def test_a_space_battle_is_not_changed() -> None:
    """Round 1: 1 (a miss, not re-rolled); 7 (hit)."""
    played = run(space({"units": {"cruiser": 1}, **SOL}, {"units": {"cruiser": 1}}), [1, 7])
    assert played.outcome["result"] == "defender_win"


def test_with_the_shock_troops_option_it_is_played() -> None:
    """Refused before 27T-11; now the 1s are re-rolled inside the roll, the same dice in the
    same order (tests/ti3/races/test_spec_ops_shock_troops.py): round 1: 1, re-rolled 8; 1."""
    scenario = landing({"ground_force": 1}, {"ground_force": 1}, options={"shock_troops": True})
    played = run(scenario, [1, 8, 1])
    assert invasion_faces(played) == [[1, 8], [1]]
    assert played.outcome["planet_taken"] is True


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = landing({"ground_force": 2, "mechanized_unit": 1}, {"ground_force": 3})
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
