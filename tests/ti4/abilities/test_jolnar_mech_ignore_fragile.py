"""Jol-Nar mech (abilities/jolnar_mech_ignore_fragile.py): the owner's infantry on its planet
ignore FRAGILE (-1 to Jol-Nar combat rolls) in ground combat (ti4-ground-combat.md step 1),
while a mech is on the planet when the roll is made (docs/rulings.md 14C-3)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def landing(units: str, **attacker: Any) -> dict[str, Any]:
    return invasion(
        {"faction": "jolnar", "units": units, **attacker},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )


def attacker_hit_on(played: Any) -> list[dict[str, int]]:
    return [
        {g["unit"]: g["hit_on"] for g in groups_of(r)}
        for r in rolls(played, "ground_combat")
        if r["player"] == "attacker"
    ]


def test_infantry_with_a_mech_roll_without_fragile() -> None:
    # mech 6 + 1 (Fragile applies to it) = 7; infantry 8 (no Fragile)
    played = run(landing("1 carrier, 1 mech, 1 infantry"), [1, 8, 1])
    assert attacker_hit_on(played) == [{"mech": 7, "infantry": 8}]


def test_infantry_without_a_mech_are_fragile() -> None:
    played = run(landing("1 carrier, 2 infantry"), [9, 1, 1])
    assert attacker_hit_on(played) == [{"infantry": 9}]


def test_fragile_again_once_the_mech_is_destroyed() -> None:
    # round 1: all miss, the defender's hit destroys the (damaged) mech by the casualty order;
    # round 2 the infantry are fragile again (9)
    scenario = landing(
        "1 carrier, 1 mech, 1 infantry",
        damaged={"mech": 1},
        policy={"casualty_order": ["mech", "infantry"]},
    )
    played = run(scenario, [1, 1, 8, 9, 1])
    assert attacker_hit_on(played) == [{"mech": 7, "infantry": 8}, {"infantry": 9}]
    assert events(played, "unit_destroyed", player="attacker", unit="mech")


def test_exact_odds_hand_derived() -> None:
    """A damaged mech (on 7: 2/5) and 1 infantry (on 8, Fragile ignored: 3/10) against 1
    infantry (on 8: 3/10). The defender's hit takes the infantry first (cheapest); the attacker
    misses with 3/5 · 7/10 = 21/50. From the start S: won 29/50 (any hit), and if it misses
    (21/50): the defender hits (3/10) -> M (the mech alone), or not (7/10) -> S again.
    M: won 2/5 · 7/10 = 7/25, drawn 2/5 · 3/10 = 3/25, lost 3/5 · 3/10 = 9/50, again 21/50:
    won 14/29, drawn 6/29, lost 9/29.
    S: won = (29/50 + 21/50 · 3/10 · 14/29) / (1 - 21/50 · 7/10)."""
    scenario = landing("1 carrier, 1 mech, 1 infantry", damaged={"mech": 1})
    again = 1 - Fraction(21, 50) * Fraction(7, 10)
    to_mech = Fraction(21, 50) * Fraction(3, 10)
    win = (Fraction(29, 50) + to_mech * Fraction(14, 29)) / again
    draw = to_mech * Fraction(6, 29) / again
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)


def test_a_defending_mech_on_its_planet() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry"},
        {"faction": "jolnar"},
        planets=[{"name": "P", "defender": {"infantry": 1, "mech": 1}}],
    )
    played = run(scenario, [8, 1, 10])
    [defender] = [r for r in rolls(played, "ground_combat") if r["player"] == "defender"]
    assert {g["unit"]: g["hit_on"] for g in groups_of(defender)} == {"mech": 7, "infantry": 8}
