"""Hybrid Crystal Drives (Naalu racial technology; PC_Twi r_Naalu.cpp: "your Carriers and
unsupported Advanced Fighters each only count 1/2 ship for the Fleet Supply (rounded up)"):
the fleet check (ti3-facts.md 4.3; docs/rulings.md 27R-21)."""

from __future__ import annotations

from typing import Any

from spacecombat.core.engine import Played
from tests.helpers import events, run
from tests.ti3.effects import space


def _removed(played: Played[Any]) -> list[object]:
    return [e["unit"] for e in events(played, "unit_removed")]


def test_three_carriers_and_a_cruiser_fit_a_supply_of_3() -> None:
    """Carriers count 1/2 each: 3 carriers are 2 ships (1.5 rounded up), with the cruiser 3.
    Round 1: cruiser 7 (the destroyer destroyed), carriers 1, 1, 1; destroyer 1."""
    played = run(
        space(
            {
                "units": {"carrier": 3, "cruiser": 1},
                "faction": "naalu",
                "technologies": ["hybrid_crystal_drives"],
                "fleet_supply": 3,
            },
            {"units": {"destroyer": 1}},
        ),
        [7, 1, 1, 1, 1],
    )
    assert _removed(played) == []


def test_without_it_one_goes() -> None:
    """The same fleet without the technology is one ship over (4 > 3)."""
    played = run(
        space(
            {"units": {"carrier": 3, "cruiser": 1}, "faction": "naalu", "fleet_supply": 3},
            {"units": {"destroyer": 1}},
        ),
        [7, 1, 1, 1],
        all_dice=False,
    )
    assert len(_removed(played)) == 1


def test_unsupported_advanced_fighters_count_half() -> None:
    """A carrier (6 room) and 8 Advanced Fighters: 2 unsupported; with the carrier, 3 halves:
    2 ships; fleet supply 2 holds. The destroyer's barrage: 1, 1. Round 1: carrier 1,
    fighters 9 (the destroyer destroyed) and seven 1s; destroyer 1."""
    played = run(
        space(
            {
                "units": {"carrier": 1, "fighter": 8},
                "faction": "naalu",
                "technologies": ["hybrid_crystal_drives", "advanced_fighters"],
                "fleet_supply": 2,
            },
            {"units": {"destroyer": 1}},
        ),
        [1, 1, 1, 9, 1, 1, 1, 1, 1, 1, 1, 1],
    )
    assert _removed(played) == []
