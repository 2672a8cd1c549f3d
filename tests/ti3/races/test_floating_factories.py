"""Floating Factories (Saar racial technology; PC_Twi r_Saar.cpp): the owner's space docks
support 5 fighters rather than 3 (ti3-facts.md 2; the fleet check, docs/rulings.md 27R-13)."""

from __future__ import annotations

from tests.helpers import events, run
from tests.ti3.effects import space


def _removed(faction: dict[str, object]) -> list[object]:
    """A cruiser and 5 fighters beside the owner's space dock, against a carrier. Round 1:
    cruiser 7 (the carrier destroyed), the fighters that stay 1 each; carrier 1 (faces left
    over when fighters went before the battle)."""
    played = run(
        space(
            {"units": {"cruiser": 1, "fighter": 5, "space_dock": 1}, **faction},
            {"units": {"carrier": 1}},
        ),
        [7, 1, 1, 1, 1, 1, 1],
        all_dice=False,
    )
    return [e["unit"] for e in events(played, "unit_removed")]


def test_a_dock_supports_five_fighters() -> None:
    assert _removed({"faction": "saar", "technologies": ["floating_factories"]}) == []


def test_without_it_a_dock_supports_three() -> None:
    assert _removed({}) == ["fighter", "fighter"]
