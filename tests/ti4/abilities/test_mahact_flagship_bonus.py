"""Mahact flagship (abilities/mahact_flagship_bonus.py): +2 to its combat rolls (space combat,
ti4-space-combat.md step 3) against an opponent whose command token is NOT in the Mahact
player's fleet pool; the opponent's condition ``command_token_in_fleet_pool_of_opponent`` says
their token is there, and then there is no bonus (docs/rulings.md 14C-2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import rolls, run, space

IN_POOL = "command_token_in_fleet_pool_of_opponent"


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def duel(*conditions: str) -> dict[str, Any]:
    defender: dict[str, Any] = {"units": "1 cruiser"}
    if conditions:
        defender["conditions"] = list(conditions)
    mahact = {"faction": "mahact", "units": "1 flagship", "damaged": {"flagship": 1}}
    return space(mahact, defender)


def flagship_hit_on(played: Any) -> list[int]:
    return [
        g["hit_on"]
        for r in rolls(played, "space_combat")
        if r["player"] == "attacker"
        for g in groups_of(r)
    ]


def test_plus_two_when_the_opponent_token_is_not_in_the_fleet_pool() -> None:
    played = run(duel(), [3, 1, 1])
    assert flagship_hit_on(played) == [3]  # 5 - 2


def test_no_bonus_when_the_opponent_token_is_in_the_fleet_pool() -> None:
    played = run(duel(IN_POOL), [5, 1, 1])
    assert flagship_hit_on(played) == [5]


def test_the_condition_on_the_mahact_player_does_not_matter() -> None:
    mahact = {
        "faction": "mahact",
        "units": "1 flagship",
        "damaged": {"flagship": 1},
        "conditions": [IN_POOL],
    }
    played = run(space(mahact, {"units": "1 cruiser"}), [3, 1, 1])
    assert flagship_hit_on(played) == [3]


def test_other_ships_get_nothing() -> None:
    mahact = {"faction": "mahact", "units": "1 flagship, 1 cruiser"}
    played = run(space(mahact, {"units": "1 dreadnought"}), [3, 3, 7, 1])
    [roll] = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert {g["unit"]: g["hit_on"] for g in groups_of(roll)} == {"flagship": 3, "cruiser": 7}


def test_exact_odds_hand_derived() -> None:
    """A damaged Mahact flagship (2 dice on 3: misses both with 1/25) against a cruiser (on 7,
    2/5). Per round: won 24/25 · 3/5 = 72/125, drawn 24/25 · 2/5 = 48/125, lost 1/25 · 2/5 =
    2/125, again 3/125; so won 72/122 = 36/61, drawn 24/61, lost 1/61. With the token in the
    fleet pool (2 dice on 5, miss both 4/25): won 21/25 · 3/5 / (1 - 12/125) = 63/113."""
    found = odds(duel())
    assert found.attacker_win == pytest.approx(float(Fraction(36, 61)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(24, 61)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(1, 61)), abs=1e-12)
    assert odds(duel(IN_POOL)).attacker_win == pytest.approx(float(Fraction(63, 113)), abs=1e-12)
