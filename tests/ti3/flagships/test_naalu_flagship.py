"""The Matriarch, the Naalu flagship (docs/rulings.md 27R-8; PC_Twi r_Naalu.cpp
e_NaaluFlagship): while it lives, its owner's fleet supply is 3 larger (the fleet check,
ti3-facts.md 4.3)."""

from __future__ import annotations

from typing import Any

from spacecombat.core.engine import Played
from tests.helpers import events, run
from tests.ti3.effects import space


def _removed(played: Played[Any]) -> list[object]:
    return [e["unit"] for e in events(played, "unit_removed")]


def test_the_matriarch_adds_three_to_fleet_supply() -> None:
    """Fleet supply 2 and four ships (flagship and 3 cruisers): 5 allowed with the Matriarch,
    so none goes. Round 1: flagship 8 (the cruiser destroyed), 1; cruisers 1, 1, 1; cruiser 1."""
    played = run(
        space(
            {"units": {"flagship": 1, "cruiser": 3}, "faction": "naalu", "fleet_supply": 2},
            {"units": {"cruiser": 1}},
        ),
        [1, 1, 1, 8, 1, 1],
    )
    assert _removed(played) == []


def test_without_it_the_excess_goes() -> None:
    """Fleet supply 2 and four cruisers of the Naalu: two go before the battle. Round 1:
    cruisers 7, 1; cruiser 1."""
    played = run(
        space(
            {"units": {"cruiser": 4}, "faction": "naalu", "fleet_supply": 2},
            {"units": {"cruiser": 1}},
        ),
        [7, 1, 1],
    )
    assert _removed(played) == ["cruiser", "cruiser"]
