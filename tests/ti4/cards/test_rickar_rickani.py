"""Rickar Rickani (Winnu commander; abilities/rickar_rickani.py): +2 to the holder's combat
rolls (ti4-space-combat.md step 3, ti4-ground-combat.md step 1) in the Mecatol Rex system
(system feature ``mecatol_rex``), in a system with a legendary planet (``legendary_planet``)
and in the holder's home system (the holder's condition ``home_system``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import invasion, rolls, run, space

RR = {"leaders": ["rickar_rickani"]}


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def duel(*features: str, **attacker: Any) -> dict[str, Any]:
    extra: dict[str, Any] = {"system": {"features": list(features)}} if features else {}
    return space({"units": "1 cruiser", **RR, **attacker}, {"units": "1 cruiser"}, **extra)


def hit_on(played: Any, player: str) -> list[int]:
    return [g["hit_on"] for r in rolls(played) if r["player"] == player for g in groups_of(r)]


@pytest.mark.parametrize("feature", ["mecatol_rex", "legendary_planet"])
def test_plus_two_in_mecatol_rex_and_legendary_systems(feature: str) -> None:
    played = run(duel(feature), [5, 1])
    assert hit_on(played, "attacker") == [5]
    assert hit_on(played, "defender") == [7]


def test_plus_two_in_the_holder_home_system() -> None:
    played = run(duel(conditions=["home_system"]), [5, 1])
    assert hit_on(played, "attacker") == [5]


def test_the_opponent_home_system_gives_nothing() -> None:
    scenario = space(
        {"units": "1 cruiser", **RR}, {"units": "1 cruiser", "conditions": ["home_system"]}
    )
    played = run(scenario, [7, 1])
    assert hit_on(played, "attacker") == [7]


def test_nothing_elsewhere() -> None:
    played = run(duel(), [7, 1])
    assert hit_on(played, "attacker") == [7]


def test_in_ground_combat_too() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", **RR},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
        system={"features": ["mecatol_rex"]},
    )
    played = run(scenario, [6, 1])
    assert [g["hit_on"] for g in groups_of(rolls(played, "ground_combat")[0])] == [6]


def test_exact_odds_hand_derived() -> None:
    """1 cruiser each at Mecatol Rex: the holder hits on 5 (3/5), the other on 7 (2/5). Per
    round won 3/5 · 3/5 = 9/25, drawn 3/5 · 2/5 = 6/25, lost 2/5 · 2/5 = 4/25, again 6/25:
    won 9/19, drawn 6/19, lost 4/19."""
    found = odds(duel("mecatol_rex"))
    assert found.attacker_win == pytest.approx(float(Fraction(9, 19)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(6, 19)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(4, 19)), abs=1e-12)
