"""Winnu flagship (abilities/winnu_flagship_dice.py): its combat roll (ti4-space-combat.md
step 3) has as many dice as the opponent has non-fighter ships in the space area at that roll
(docs/rulings.md 14C-5)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import rolls, run, space


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def winnu(units: str = "1 flagship", **extra: Any) -> dict[str, Any]:
    return {"faction": "winnu", "units": units, **extra}


def flagship_dice(played: Any) -> list[int]:
    return [
        len(g["faces"])
        for r in rolls(played, "space_combat")
        if r["player"] == "attacker"
        for g in groups_of(r)
        if g["unit"] == "flagship"
    ]


def test_one_die_per_non_fighter_ship_of_the_opponent() -> None:
    # a carrier, a cruiser and 2 fighters: 2 dice on 7, both miss; the defender's 4 hits destroy the
    # flagship (it sustains one)
    played = run(
        space(winnu(), {"units": "1 carrier, 1 cruiser, 2 fighter"}), [1, 1, 10, 10, 10, 10]
    )
    [first] = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"][:1]
    assert [(g["unit"], len(g["faces"]), g["hit_on"]) for g in groups_of(first)] == [
        ("flagship", 2, 7)
    ]


def test_the_count_follows_the_opponent_losses() -> None:
    # round 1: the flagship (2 dice) hits once: a cruiser dies; the defender misses (1);
    # round 2: 1 die (one cruiser left), hits: won
    played = run(space(winnu(), {"units": "2 cruiser"}), [7, 1, 1, 1, 7, 1])
    assert flagship_dice(played) == [2, 1]


def test_other_ships_roll_as_printed() -> None:
    played = run(space(winnu("1 flagship, 1 cruiser"), {"units": "1 cruiser"}), [7, 1, 1])
    [roll] = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert [(g["unit"], len(g["faces"])) for g in groups_of(roll)] == [
        ("cruiser", 1),
        ("flagship", 1),
    ]


def test_modifiers_apply_to_its_dice() -> None:
    scenario = space(winnu(action_cards=["morale_boost"]), {"units": "1 cruiser"})
    played = run(scenario, [6, 1])
    [roll] = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert [(g["unit"], len(g["faces"]), g["hit_on"]) for g in groups_of(roll)] == [
        ("flagship", 1, 6)
    ]


def test_exact_odds_hand_derived() -> None:
    """A damaged Winnu flagship against a carrier and a fighter: 1 die on 7 (2/5; the fighter
    does not count); the defender rolls 2 dice on 9 (no hit: 16/25). The flagship's hit takes
    the fighter. Against the carrier alone (2/5 against 1/5): won 8/25, drawn 2/25, lost 3/25,
    again 12/25: won 8/13, drawn 2/13. From the start: to the carrier alone
    2/5 · 16/25 = 32/125, again 3/5 · 16/25 = 48/125, otherwise the flagship dies:
    won 32/125 · 8/13 / (77/125) = 256/1001, drawn 64/1001."""
    scenario = space(winnu(damaged={"flagship": 1}), {"units": "1 carrier, 1 fighter"})
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(Fraction(256, 1001)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(64, 1001)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(681, 1001)), abs=1e-12)
