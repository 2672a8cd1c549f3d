"""Ul the Progenitor (Titans hero; abilities/ul_the_progenitor.py): attached to Elysium, it
gives the planet SPACE CANNON 5 (x3) as if it were a unit (ti4-combat-effects.md §5). Hooks
``cannon_groups``: with the holder's condition ``home_system`` (Elysium's system), its space
cannon offense (ti4-space-combat.md, before combat) and space cannon defense
(ti4-ground-combat.md invasion step 3) roll 3 more dice at 5 (docs/rulings.md
14D1-11)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.events import Event
from tests.helpers import invasion, rolls, run, space

UL = {"leaders": ["ul_the_progenitor"], "conditions": ["home_system"]}


def groups(roll: Event) -> list[tuple[str, int, int]]:
    """(unit, dice, hit_on) of each group of a roll."""
    found = cast("list[dict[str, Any]]", roll["groups"])
    return [(g["unit"], len(g["faces"]), g["hit_on"]) for g in found]


def test_elysium_fires_space_cannon_offense() -> None:
    # Elysium 5, 1, 1: the attacker's only cruiser is destroyed, no combat
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser", **UL}), [5, 1, 1])
    [roll] = rolls(played, "space_cannon_offense")
    assert roll["player"] == "defender"
    assert groups(roll) == [("elysium", 3, 5)]


def test_not_outside_the_home_system() -> None:
    played = run(
        space({"units": "1 cruiser"}, {"units": "1 cruiser", "leaders": ["ul_the_progenitor"]}),
        [7, 1],
    )
    assert rolls(played, "space_cannon_offense") == []


def test_as_a_unit_it_gets_plasma_scorings_die() -> None:
    defender = {"units": "1 cruiser, 1 pds", "technologies": ["plasma_scoring"], **UL}
    played = run(space({"units": "1 cruiser"}, defender), [5, 1, 1, 1, 1])
    [roll] = rolls(played, "space_cannon_offense")
    assert groups(roll) == [("elysium", 4, 5), ("pds", 1, 6)]


def test_space_cannon_defense_when_elysium_is_invaded() -> None:
    scenario = invasion({"units": "1 carrier, 1 infantry"}, {"units": "1 infantry", **UL})
    played = run(scenario, [5, 1, 1])
    [roll] = rolls(played, "space_cannon_defense")
    assert groups(roll) == [("elysium", 3, 5)]


def test_the_opponent_gets_nothing() -> None:
    played = run(space({"units": "1 cruiser", **UL}, {"units": "1 cruiser"}), [1, 1, 1, 7, 1])
    assert [r["player"] for r in rolls(played, "space_cannon_offense")] == ["attacker"]


def test_exact_odds_hand_derived() -> None:
    """1 cruiser against 1 cruiser and Elysium with Ul: 3 dice at 5 (3/5 each) all miss with
    (2/5)^3 = 8/125; otherwise no combat. Then a 2/5 duel (3/8, 1/4, 3/8):
    attacker = defender = 8/125 * 3/8 = 3/125, draw = 8/125 * 1/4 = 2/125."""
    found = odds(space({"units": "1 cruiser"}, {"units": "1 cruiser", **UL}))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 125)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 125)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(2, 125)), abs=1e-12)
