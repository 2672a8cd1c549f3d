"""Yin mech DEPLOY (abilities/yin_mech_deploy.py): when you use Indoctrination, spend 1 more
influence to place 1 mech instead of 1 infantry (ti4-combat-effects.md §3; data/units.toml).
It acts through Indoctrination's "play_card" decision at the start of a ground combat
(ti4-ground-combat.md rule 4.1): "play indoctrination: with mech" is offered first."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, run


def scenario(influence: int = 3, **extra: Any) -> dict[str, Any]:
    # the mech is listed (in space, not committed) so that its DEPLOY ability is in play
    return invasion(
        {
            "units": "1 carrier, 1 infantry, 1 mech",
            "faction": "yin",
            "influence": influence,
            **extra,
        },
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}, "commit": {"infantry": 1}}],
    )


def test_a_mech_is_placed_for_three_influence() -> None:
    # the defender has no ground force left: any die the attacker rolls still is lost
    played = run(scenario(), [1, 1, 1], all_dice=False)
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["options"] == ["play indoctrination: with mech", "play indoctrination", "pass"]
    [placed] = events(played, "units_placed")
    assert placed["unit"] == "mech"
    assert played.outcome["winner"] == "attacker"  # the lone defender was replaced


def test_with_two_influence_only_infantry() -> None:
    played = run(scenario(2), [1, 1, 1], all_dice=False)
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["options"] == ["play indoctrination", "pass"]
    assert events(played, "units_placed")[0]["unit"] == "infantry"


def test_a_scripted_choice_of_infantry() -> None:
    played = run(scenario(), [1, 1, 1], all_dice=False, attacker=["play indoctrination"])
    assert events(played, "units_placed")[0]["unit"] == "infantry"


def test_a_scripted_pass() -> None:
    played = run(scenario(), [10, 1], attacker=["pass"])
    assert not events(played, "units_placed")


def test_exact_odds_hand_derived() -> None:
    """The lone defending infantry is replaced before any die is rolled: the attacker wins
    with probability 1; without the influence to pay, 1 v 1 on 8 is won 7/17."""
    assert odds(scenario()).attacker_win == pytest.approx(1.0, abs=1e-12)
    poor = odds(scenario(1))
    assert poor.attacker_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
