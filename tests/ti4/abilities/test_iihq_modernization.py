"""I.I.H.Q. Modernization (Keleres technology; abilities/iihq_modernization.py): with Custodia
Vigilia, Mecatol Rex has SPACE CANNON 5 while the owner controls it (ti4-combat-effects.md §3,
§8). Hooks ``cannon_groups``: in the Mecatol Rex system (system feature ``mecatol_rex``) the
owner's space cannon offense (ti4-space-combat.md, before combat) and space cannon defense
(ti4-ground-combat.md invasion step 3) roll 1 more die at 5; the planet is not a unit
(docs/rulings.md 14D1-10)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.events import Event
from tests.helpers import invasion, rolls, run, space

IIHQ = {"technologies": ["iihq_modernization"]}
MECATOL = {"features": ["mecatol_rex"]}


def groups(roll: Event) -> list[tuple[str, int, int]]:
    """(unit, dice, hit_on) of each group of a roll."""
    found = cast("list[dict[str, Any]]", roll["groups"])
    return [(g["unit"], len(g["faces"]), g["hit_on"]) for g in found]


def test_mecatol_rex_fires_space_cannon_offense() -> None:
    # Mecatol Rex 5 hits: the attacker's only cruiser is destroyed, no combat
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser", **IIHQ}, system=MECATOL), [5])
    [roll] = rolls(played, "space_cannon_offense")
    assert roll["player"] == "defender"
    assert groups(roll) == [("mecatol_rex", 1, 5)]


def test_for_the_attacker_too() -> None:
    played = run(
        space({"units": "1 cruiser", **IIHQ}, {"units": "1 cruiser"}, system=MECATOL), [1, 7, 1]
    )
    [roll] = rolls(played, "space_cannon_offense")
    assert roll["player"] == "attacker"


def test_not_outside_the_mecatol_rex_system() -> None:
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser", **IIHQ}), [7, 1])
    assert rolls(played, "space_cannon_offense") == []


def test_the_planet_is_not_a_unit_for_plasma_scoring() -> None:
    # Plasma Scoring's die goes to the PDS (6), not to Mecatol Rex (5)
    defender = {
        "units": "1 cruiser, 1 pds",
        "technologies": ["iihq_modernization", "plasma_scoring"],
    }
    played = run(space({"units": "1 cruiser"}, defender, system=MECATOL), [5, 1, 1])
    [roll] = rolls(played, "space_cannon_offense")
    assert groups(roll) == [("mecatol_rex", 1, 5), ("pds", 2, 6)]


def test_space_cannon_defense_when_mecatol_rex_is_invaded() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry"}, {"units": "1 infantry", **IIHQ}, system=MECATOL
    )
    played = run(scenario, [5])
    [roll] = rolls(played, "space_cannon_defense")
    assert groups(roll) == [("mecatol_rex", 1, 5)]


def test_exact_odds_hand_derived() -> None:
    """1 cruiser against 1 cruiser with I.I.H.Q. Modernization in the Mecatol Rex system: the
    planet hits with 3/5 (no combat); otherwise a 2/5 duel (3/8, 1/4, 3/8):
    attacker = defender = 2/5 * 3/8 = 3/20, draw = 2/5 * 1/4 = 1/10."""
    found = odds(space({"units": "1 cruiser"}, {"units": "1 cruiser", **IIHQ}, system=MECATOL))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 20)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 20)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 10)), abs=1e-12)
    assert found.other["no_combat"] == pytest.approx(0.6, abs=1e-12)
