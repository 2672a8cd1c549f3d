"""Overrun (TI3 Shards of the Throne action card; data/action_cards.toml; docs/rulings.md
27S-4): before an invasion combat in which the holder's Mechanized Unit takes part, destroy one
of the opponent's ground forces (a shock troop if it has none) on the planet (PC_Twi
e_a_Overrun).

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import at_least_one, destroyed_by, invasion_of_a, two_lives_duel

CARD = {"action_cards": ["overrun"]}


def destroyed(played: Any) -> list[tuple[object, object]]:
    return destroyed_by(played, "Overrun")


def test_destroys_a_defending_ground_force_before_the_combat() -> None:
    """Before round 1 the attacker's card takes one of the two ground forces. Round 1: the
    Mechanized Unit 6 (hit), 1; the ground force 1."""
    played = run(
        invasion_of_a({"carrier": 1, "mechanized_unit": 1}, {"ground_force": 2}, a=CARD), [6, 1, 1]
    )
    assert destroyed(played) == [("defender", "ground_force")]
    assert played.outcome["planet_taken"] is True


def test_a_shock_troop_when_no_ground_force_is_left() -> None:
    """The defender's only unit is a shock troop: the card takes it, no combat is fought."""
    scenario = invasion_of_a({"carrier": 1, "mechanized_unit": 1}, {"shock_troop": 1}, a=CARD)
    scenario["options"] = {"shock_troops": True}
    played = run(scenario, [])
    assert destroyed(played) == [("defender", "shock_troop")]
    assert played.outcome["planet_taken"] is True


def test_the_defender_plays_it_too() -> None:
    """A defending Mechanized Unit: the defender takes one of the attacker's two ground forces.
    Round 1: the ground force 1; the Mechanized Unit 6 (hit), 1."""
    played = run(
        invasion_of_a({"carrier": 1, "ground_force": 2}, {"mechanized_unit": 1}, d=CARD), [1, 6, 1]
    )
    assert destroyed(played) == [("attacker", "ground_force")]
    assert played.outcome["planet_taken"] is False


def test_not_offered_without_a_mechanized_unit() -> None:
    played = run(
        invasion_of_a({"carrier": 1, "ground_force": 1}, {"ground_force": 1}, a=CARD), [8, 1]
    )
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_the_mechanized_unit_against_the_last_ground_force() -> None:
    """Hand-derived. The card leaves one ground force (8+: 3/10) against the Mechanized Unit
    (two dice at 6: a = 1 - (1/2)^2 = 3/4; two lives): the duel of tests/ti3/effects.py."""
    win, both, lose = two_lives_duel(at_least_one(2, Fraction(1, 2)), Fraction(3, 10))
    report = odds(
        invasion_of_a({"carrier": 1, "mechanized_unit": 1}, {"ground_force": 2}, a=CARD),
        fractions=True,
    )
    assert report.other["planet_taken"] == win
    assert (report.attacker_win, report.draw, report.defender_win) == (win, both, lose)


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = invasion_of_a(
        {"carrier": 1, "mechanized_unit": 1, "ground_force": 1},
        {"ground_force": 2, "mechanized_unit": 1},
        a=CARD,
        d=CARD,
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
