"""Views of a battle state that every ruleset reads the same way: how many ships a player has
in the space area, how many ground forces on a planet (by the player's unit cards)."""

from __future__ import annotations

from functools import cached_property
from typing import Protocol

from spacecombat.core.forces import Forces
from spacecombat.core.rulesdata import UnitCards
from spacecombat.core.sides import Side, SideState


class HasUnits(Protocol):
    """A battle state: each player's units."""

    def side(self, side: Side) -> SideState: ...


class HasCards(Protocol):
    """A battle's fixed facts: each player's unit cards."""

    def side(self, side: Side) -> UnitCards: ...


class CountedCards(UnitCards):
    """A player's unit cards that remember, for each set of forces asked about, how many ships
    and ground forces it holds (the exact engine asks about the same forces many times). For
    a class whose ``cards`` do not change (a battle's fixed facts)."""

    @cached_property
    def _ships(self) -> dict[Forces, int]:
        return {}

    @cached_property
    def _ground_forces(self) -> dict[Forces, int]:
        return {}

    def ships_in(self, forces: Forces) -> int:
        """How many of ``forces`` are ships."""
        known = self._ships.get(forces)
        if known is None:
            known = self._ships[forces] = forces.total(self.is_ship)
        return known

    def ground_forces_in(self, forces: Forces) -> int:
        """How many of ``forces`` are ground forces."""
        known = self._ground_forces.get(forces)
        if known is None:
            known = self._ground_forces[forces] = forces.total(self.is_ground_force)
        return known


def ships(setup: HasCards, state: HasUnits, side: Side) -> int:
    """How many ships ``side`` has in the space area of the active system."""
    cards = setup.side(side)
    space = state.side(side).space
    if isinstance(cards, CountedCards):
        return cards.ships_in(space)
    return space.total(cards.is_ship)


def ground_forces(setup: HasCards, state: HasUnits, side: Side, planet: int) -> int:
    """How many ground forces ``side`` has on a planet (the units that fight there)."""
    cards = setup.side(side)
    units = state.side(side).planet(planet)
    if isinstance(cards, CountedCards):
        return cards.ground_forces_in(units)
    return units.total(cards.is_ground_force)
