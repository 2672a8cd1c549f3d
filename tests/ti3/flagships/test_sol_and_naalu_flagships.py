"""The flagships whose abilities act in the fleet check (ti3-facts.md 4.3; docs/rulings.md
27R-8): Genesis (Federation of Sol) carries any number of ground forces (PC_Twi
FlagshipAbilities: uaUnlimGF); the Matriarch (Naalu) makes its owner's fleet supply 3 larger
while it lives (PC_Twi r_Naalu.cpp e_NaaluFlagship)."""

from __future__ import annotations

from tests.helpers import events, run, survivors
from tests.ti3.effects import space


def _removed(played: object) -> list[object]:
    return [e["unit"] for e in events(played, "unit_removed")]  # type: ignore[arg-type]


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
