"""The Yin Brotherhood's sacrifice (docs/rulings.md 27S-15; wiki.omf2097.com
joneirik:rpg:ti3_races; PC_Twi r_Yin.cpp e_YinKamikaze): before round 2 of a space battle the
Yin may discard a cruiser or destroyer to inflict one hit on an enemy non-fighter ship, once.

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

YIN = {"faction": "yin"}


def by_sacrifice(played: Any) -> list[tuple[object, object]]:
    return [
        (e["player"], e["unit"])
        for e in events(played, "unit_destroyed", cause="the Yin sacrifice")
    ]


def test_the_destroyer_given_up_destroys_the_cruiser() -> None:
    """Round 1: cruiser 1, destroyer 1; dreadnought 1, cruiser 1. Before round 2 the stock Yin
    gives up its destroyer (the cheaper) and hits the cruiser (a hit that destroys, before one
    the dreadnought would only sustain). Round 2: 7 (the dreadnought sustains); 1. Round 3: 7;
    1."""
    played = run(
        space(
            {"units": {"destroyer": 1, "cruiser": 1}, **YIN},
            {"units": {"dreadnought": 1, "cruiser": 1}},
        ),
        [1, 1, 1, 1, 7, 1, 7, 1],
    )
    assert by_sacrifice(played) == [("attacker", "destroyer"), ("defender", "cruiser")]
    assert played.outcome["result"] == "attacker_win"


def test_a_hit_on_a_dreadnought_damages_it() -> None:
    """Only a dreadnought to hit: it is damaged (a Yin that plays it whenever offered:
    ``policy.play`` naming round 2, 27S-23). Round 1: 1; 1. Round 2: 7; 1 (destroyed)."""
    always = {**YIN, "policy": {"play": {"yin_sacrifice": {"round": 2}}}}
    played = run(
        space({"units": {"destroyer": 1, "cruiser": 1}, **always}, {"units": {"dreadnought": 1}}),
        [1, 1, 1, 7, 1],
    )
    damaged = events(played, "damage_sustained", cause="the Yin sacrifice")
    assert [(e["player"], e["unit"]) for e in damaged] == [("defender", "dreadnought")]
    assert played.outcome["result"] == "attacker_win"


def test_policy_never_keeps_the_ships() -> None:
    played = run(
        space(
            {"units": {"cruiser": 1}, **YIN, "policy": {"play": {"yin_sacrifice": "never"}}},
            {"units": {"cruiser": 1}},
        ),
        [1, 1, 7, 1],
    )
    assert by_sacrifice(played) == []


def test_exact_odds_a_cruiser_and_a_destroyer_against_a_cruiser() -> None:
    """Hand-derived. Round 1: the Yin hits with 1 - 3/5 * 4/5 = 13/25 and wins then, whatever
    the cruiser does (its hit takes the destroyer): 65/125. Both miss (36/125): before round 2
    the destroyer is given up for the cruiser: the Yin wins. The Yin misses and loses its
    destroyer (24/125): its cruiser is given up for the enemy's, nobody has ships: a draw.
    Attacker 101/125, draw 24/125."""
    report = odds(
        space({"units": {"destroyer": 1, "cruiser": 1}, **YIN}, {"units": {"cruiser": 1}}),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(101, 125),
        Fraction(24, 125),
        0,
    )


def test_the_stock_yin_keeps_its_ships_for_a_hit_that_only_damages() -> None:
    """27S-23: a hit that only damages the dreadnought is not worth a ship: "pass" is listed
    first and the stock Yin passes. Round 1: 1, 1; 1. Round 2: 7, 1; 1. Round 3: 7, 1; 1."""
    played = run(
        space({"units": {"destroyer": 1, "cruiser": 1}, **YIN}, {"units": {"dreadnought": 1}}),
        [1, 1, 1, 7, 1, 1, 7, 1, 1],
    )
    assert by_sacrifice(played) == []
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_the_stock_yin_keeps_a_cruiser_against_a_destroyer() -> None:
    """Hand-derived, 27S-23. A Yin cruiser (7+: 2/5) against a destroyer (9+: 1/5): the
    destroyer (cost 1) is worth less than the cruiser (2), so the stock Yin never gives it up.
    Each round: the cruiser alone hits 2/5 * 4/5 = 8/25, the destroyer alone 3/5 * 1/5 = 3/25,
    both 2/25 (a draw), neither 12/25 (again): attacker 8/13, draw 2/13, defender 3/13."""
    report = odds(
        space({"units": {"cruiser": 1}, **YIN}, {"units": {"destroyer": 1}}), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(8, 13),
        Fraction(2, 13),
        Fraction(3, 13),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"destroyer": 2, "cruiser": 1, "dreadnought": 1}, **YIN},
        {"units": {"dreadnought": 1, "cruiser": 2, "carrier": 1, "fighter": 2}},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
