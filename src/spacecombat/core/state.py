"""Views of a battle state that every ruleset reads the same way: how many ships a player has
in the space area, how many ground forces on a planet (by the player's unit cards)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Protocol, TypeVar

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
        known = cards._ships.get(space)  # (``ships_in``, read here: at every step)
        return cards.ships_in(space) if known is None else known
    return space.total(cards.is_ship)


def ground_forces(setup: HasCards, state: HasUnits, side: Side, planet: int) -> int:
    """How many ground forces ``side`` has on a planet (the units that fight there)."""
    cards = setup.side(side)
    units = state.side(side).planet(planet)
    if isinstance(cards, CountedCards):
        return cards.ground_forces_in(units)
    return units.total(cards.is_ground_force)


# --- copies of a ruleset's state (a named tuple: phase first, then the attacker's and the
# defender's units, and a ``hits`` pair) ---
#
# A named tuple cannot inherit methods from a shared base, so each ruleset's state delegates
# its copies here. They build the new tuple directly: ``_replace`` takes about twice as long,
# and procedures copy a state at every step.

T = TypeVar("T", bound=tuple[object, ...])
_new = tuple.__new__
_ATTACKER = Side.ATTACKER


def with_side(state: T, side: Side, value: SideState) -> T:
    """``state`` with ``side``'s units replaced."""
    fields: list[object] = list(state)
    fields[1 if side is _ATTACKER else 2] = value
    return _new(type(state), fields)


def with_hits_on(state: T, hits_at: int, side: Side, hits: int) -> T:
    """``state`` with the hits against ``side`` set (``hits_at``: the ``hits`` field's index)."""
    fields: list[object] = list(state)
    pair = fields[hits_at]
    assert isinstance(pair, tuple)
    fields[hits_at] = (hits, pair[1]) if side is _ATTACKER else (pair[0], hits)
    return _new(type(state), fields)


def with_units_and_hits(
    state: T, hits_at: int, side: Side, where: int | None, forces: Forces, hits: int
) -> T:
    """``side``'s units in an area replaced and the hits against it set, in one copy."""
    fields: list[object] = list(state)
    pair = fields[hits_at]
    units = fields[1 if side is _ATTACKER else 2]
    assert isinstance(pair, tuple)
    assert isinstance(units, SideState)
    if side is _ATTACKER:
        fields[1] = units.with_area(where, forces)
        fields[hits_at] = (hits, pair[1])
    else:
        fields[2] = units.with_area(where, forces)
        fields[hits_at] = (pair[0], hits)
    return _new(type(state), fields)


def changed(state: T, index: Mapping[str, int], changes: Mapping[str, object]) -> T:
    """``state`` with the named fields changed (``index``: each field's position)."""
    fields: list[object] = list(state)
    for name in changes:  # (not ``items()``: a call at every copy)
        fields[index[name]] = changes[name]
    return _new(type(state), fields)


def at(state: T, phase: object, index: Mapping[str, int], changes: Mapping[str, object]) -> T:
    """``state`` moved to ``phase`` (the first field), with other fields changed."""
    fields: list[object] = list(state)
    fields[0] = phase
    for name in changes:
        fields[index[name]] = changes[name]
    return _new(type(state), fields)
