"""Naalu mech (abilities/naalu_mech_bonus.py): +2 to its combat rolls (ground combat,
ti4-ground-combat.md step 1) against an opponent holding at least 1 relic fragment, the
opponent's condition ``relic_fragment``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import invasion, rolls, run


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def landing(*conditions: str, attacker_conditions: tuple[str, ...] = ()) -> dict[str, Any]:
    attacker: dict[str, Any] = {
        "faction": "naalu",
        "units": "1 carrier, 1 mech, 1 infantry",
        "damaged": {"mech": 1},
    }
    if attacker_conditions:
        attacker["conditions"] = list(attacker_conditions)
    defender: dict[str, Any] = {"conditions": list(conditions)} if conditions else {}
    return invasion(attacker, defender, planets=[{"name": "P", "defender": {"infantry": 1}}])


def ground_hit_on(played: Any) -> dict[str, int]:
    roll = next(r for r in rolls(played, "ground_combat") if r["player"] == "attacker")
    return {g["unit"]: g["hit_on"] for g in groups_of(roll)}


def test_plus_two_against_a_relic_fragment_holder() -> None:
    played = run(landing("relic_fragment"), [4, 1, 1])
    assert ground_hit_on(played) == {"mech": 4, "infantry": 8}


def test_nothing_without_a_relic_fragment() -> None:
    played = run(landing(), [6, 1, 1])
    assert ground_hit_on(played) == {"mech": 6, "infantry": 8}


def test_the_naalu_player_fragment_does_not_count() -> None:
    played = run(landing(attacker_conditions=("relic_fragment",)), [6, 1, 1])
    assert ground_hit_on(played) == {"mech": 6, "infantry": 8}


def test_exact_odds_hand_derived() -> None:
    """A damaged Naalu mech alone (on 4 with the bonus: 7/10) lands against 1 infantry (on 8:
    3/10), the opponent holding a fragment. Per round won 7/10 · 7/10 = 49/100, drawn
    7/10 · 3/10 = 21/100, lost 3/10 · 3/10 = 9/100, again 21/100: won 49/79."""
    scenario = invasion(
        {"faction": "naalu", "units": "1 carrier, 1 mech", "damaged": {"mech": 1}},
        {"conditions": ["relic_fragment"]},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(Fraction(49, 79)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(21, 79)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 79)), abs=1e-12)


def test_a_defending_naalu_mech() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", "conditions": ["relic_fragment"]},
        {"faction": "naalu"},
        planets=[{"name": "P", "defender": {"mech": 1}, "damaged": {"mech": 1}}],
    )
    played = run(scenario, [8, 4])
    [defender] = [r for r in rolls(played, "ground_combat") if r["player"] == "defender"]
    assert [g["hit_on"] for g in groups_of(defender)] == [4]
