"""Genesis, the Federation of Sol flagship (docs/rulings.md 27R-8; PC_Twi UnitAbility.cpp
FlagshipAbilities: uaUnlimGF): it carries any number of ground forces, which the fleet check
(ti3-facts.md 4.3) reads."""

from __future__ import annotations

from typing import Any

from spacecombat.core.engine import Played
from tests.helpers import events, run, survivors
from tests.ti3.effects import space


def _removed(played: Played[Any]) -> list[object]:
    return [e["unit"] for e in events(played, "unit_removed")]


def test_genesis_carries_any_number_of_ground_forces() -> None:
    """Genesis (capacity 3) with 8 ground forces and 3 fighters: the ground forces take no
    room, the fighters fill its 3. Round 1: flagship 5 (cruiser destroyed), 1, 1; fighters
    1, 1, 1; cruiser 1. Nothing is removed before or after."""
    played = run(
        space(
            {"units": {"flagship": 1, "ground_force": 8, "fighter": 3}, "faction": "sol"},
            {"units": {"cruiser": 1}},
        ),
        [5, 1, 1, 1, 1, 1, 1],
    )
    assert _removed(played) == []
    assert survivors(played, "attacker") == {"flagship": 1, "ground_force": 8, "fighter": 3}


def test_without_genesis_the_ground_forces_need_room() -> None:
    """The same fleet with the Muaat's flagship (capacity 4): 8 ground forces are 4 too many
    before the battle (the stock owner removes them)."""
    played = run(
        space(
            {"units": {"flagship": 1, "ground_force": 8}, "faction": "muaat"},
            {"units": {"cruiser": 1}},
        ),
        [5, 1, 1, 1],
    )
    assert _removed(played) == ["ground_force"] * 4
