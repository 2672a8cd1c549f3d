"""Assimilate (L1Z1X faction ability; abilities/assimilate.py): when the L1Z1X gain control of
a planet, its PDS and space docks become theirs instead of being destroyed
(ti4-combat-effects.md §3), at Establish Control (ti4-ground-combat.md step 5)."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, run, units


def taking(faction: str | None = "l1z1x", defender: dict[str, int] | None = None) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": "1 carrier, 2 infantry"}
    if faction:
        attacker["faction"] = faction
    planet = {"name": "P", "defender": defender or {"infantry": 1, "pds": 1, "space_dock": 1}}
    return invasion(attacker, {}, planets=[planet])


def planet_units(played: Any, side: str) -> dict[str, int]:
    return units(played.outcome[side]["planets"][0])


def test_the_structures_become_the_attackers() -> None:
    # space cannon defense misses (1); ground: attacker 8, 8 kill the infantry; defender 1
    played = run(taking(), [1, 8, 8, 1])
    replaced = events(played, "unit_replaced")
    assert sorted(str(e["unit"]) for e in replaced) == ["pds", "space_dock"]
    assert all(
        (e["player"], e["by"], e["planet"]) == ("defender", "attacker", "P") for e in replaced
    )
    assert planet_units(played, "attacker") == {"infantry": 2, "pds": 1, "space_dock": 1}
    assert planet_units(played, "defender") == {}
    assert not events(played, "unit_destroyed", cause="control established")


def test_without_the_ability_they_are_destroyed() -> None:
    played = run(taking(faction=None), [1, 8, 8, 1])
    destroyed = events(played, "unit_destroyed", cause="control established")
    assert sorted(str(e["unit"]) for e in destroyed) == ["pds", "space_dock"]
    assert planet_units(played, "attacker") == {"infantry": 2}


def test_nothing_to_take_when_the_invasion_fails() -> None:
    played = run(taking(defender={"infantry": 2, "pds": 1}), [1, 1, 1, 8, 8])
    assert not events(played, "unit_replaced")
    assert not events(played, "control_established")


def test_the_odds_are_those_of_the_plain_invasion() -> None:
    """Who wins does not change: the structures change hands only after the combat."""
    with_it, without = odds(taking()), odds(taking(faction=None))
    assert with_it.attacker_win == pytest.approx(without.attacker_win, abs=1e-12)
    assert with_it.defender_win == pytest.approx(without.defender_win, abs=1e-12)
