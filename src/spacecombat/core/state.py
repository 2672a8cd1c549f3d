"""Views of a battle state that every ruleset reads the same way: how many ships a player has
in the space area, how many ground forces on a planet (by the player's unit cards)."""

from __future__ import annotations

from typing import Protocol

from spacecombat.core.rulesdata import UnitCards
from spacecombat.core.sides import Side, SideState


class HasUnits(Protocol):
    """A battle state: each player's units."""

    def side(self, side: Side) -> SideState: ...


class HasCards(Protocol):
    """A battle's fixed facts: each player's unit cards."""

    def side(self, side: Side) -> UnitCards: ...


def ships(setup: HasCards, state: HasUnits, side: Side) -> int:
    """How many ships ``side`` has in the space area of the active system."""
    return state.side(side).space.total(setup.side(side).is_ship)


def ground_forces(setup: HasCards, state: HasUnits, side: Side, planet: int) -> int:
    """How many ground forces ``side`` has on a planet (the units that fight there)."""
    return state.side(side).planet(planet).total(setup.side(side).is_ground_force)
