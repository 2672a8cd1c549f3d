"""Dug In (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-21): played
immediately before bombardment, the holder's ground forces on the planet are immune to it.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run

CARD = {"action_cards": ["dug_in"]}


def invasion(defender: dict[str, Any], d: Any = None, **attacker: Any) -> dict[str, Any]:
    """A war sun and a ground force invade planet A (the war sun bombards it)."""
    return {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {"units": {"war_sun": 1, "ground_force": 1}, **attacker},
        "defender": d or {},
        "planets": [{"name": "A", "defender": defender, "bombarded_by": {"war_sun": 1}}],
    }


def test_no_bombardment_dice_once_played() -> None:
    """The war sun's 3 bombardment dice are not rolled. Round 1: 8 (hit); 1."""
    played = run(invasion({"ground_force": 1}, CARD), [8, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["dug_in"]
    assert rolls(played, "bombardment") == []
    assert played.outcome["planet_taken"] is True


def test_without_the_card_the_war_sun_bombards() -> None:
    """Bombardment 3, 3, 3 at 3 (three hits): the ground force is destroyed; no combat."""
    played = run(invasion({"ground_force": 1}), [3, 3, 3])
    assert len(rolls(played, "bombardment")) == 1


def test_exact_odds_a_ground_force_duel() -> None:
    """Hand-derived. No bombardment: one ground force each (8+: 3/10): taken 7/17, both
    destroyed 3/17, kept 7/17."""
    report = odds(invasion({"ground_force": 1}, CARD), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(7, 17),
        Fraction(3, 17),
        Fraction(7, 17),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = invasion({"ground_force": 3, "pds": 1}, CARD)
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
