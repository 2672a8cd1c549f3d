"""Geomagnetic Mines (TI3 Shards of the Throne action card; data/action_cards.toml;
docs/rulings.md 27S-4): before an invasion combat in which an enemy Mechanized Unit takes
part, destroy one of them (PC_Twi e_a_GeomagneticMines).

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import destroyed_by, invasion_of_a

CARD = {"action_cards": ["geomagnetic_mines"]}


def destroyed(played: Any) -> list[tuple[object, object]]:
    return destroyed_by(played, "Geomagnetic Mines")


def test_destroys_the_defending_mechanized_unit() -> None:
    """Before round 1 the attacker's card destroys the Mechanized Unit. Round 1: 8 (hit); 1."""
    played = run(
        invasion_of_a(
            {"carrier": 1, "ground_force": 1}, {"ground_force": 1, "mechanized_unit": 1}, a=CARD
        ),
        [8, 1],
    )
    assert destroyed(played) == [("defender", "mechanized_unit")]
    assert played.outcome["planet_taken"] is True


def test_the_defender_destroys_a_landing_mechanized_unit() -> None:
    """The attacker's only ground unit is a Mechanized Unit: destroyed, no combat is fought."""
    played = run(
        invasion_of_a({"carrier": 1, "mechanized_unit": 1}, {"ground_force": 1}, d=CARD), []
    )
    assert destroyed(played) == [("attacker", "mechanized_unit")]
    assert played.outcome["planet_taken"] is False


def test_not_offered_without_an_enemy_mechanized_unit() -> None:
    played = run(
        invasion_of_a({"carrier": 1, "ground_force": 1}, {"ground_force": 1}, a=CARD), [8, 1]
    )
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_a_ground_force_duel_once_the_unit_is_gone() -> None:
    """Hand-derived. With the Mechanized Unit destroyed, one ground force each (8+: 3/10):
    taken 21/51 = 7/17, both destroyed 3/17, kept 7/17."""
    report = odds(
        invasion_of_a(
            {"carrier": 1, "ground_force": 1}, {"ground_force": 1, "mechanized_unit": 1}, a=CARD
        ),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(7, 17),
        Fraction(3, 17),
        Fraction(7, 17),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = invasion_of_a(
        {"carrier": 1, "mechanized_unit": 2, "ground_force": 1},
        {"ground_force": 2, "mechanized_unit": 1},
        a=CARD,
        d=CARD,
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
