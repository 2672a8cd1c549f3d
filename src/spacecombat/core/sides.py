"""The two players of a battle, and one player's units in the active system.

Shared by the rulesets: in every game we implement the active player is the attacker, and a
player's units stand in the space area of the active system or on one of its planets.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from spacecombat.core.forces import Forces


class Side(StrEnum):
    """A player in the battle; the active player is the attacker."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        return _OTHER[self]


SIDES = (Side.ATTACKER, Side.DEFENDER)
_OTHER = {Side.ATTACKER: Side.DEFENDER, Side.DEFENDER: Side.ATTACKER}
#: each side by its name (``PLAYER_SIDES["attacker"]``: the same as ``Side("attacker")``, faster)
PLAYER_SIDES = {side.value: side for side in SIDES}


class SideState(NamedTuple):
    """One player's units: in the space area of the active system, and on each planet."""

    space: Forces
    planets: tuple[Forces, ...]

    def planet(self, index: int) -> Forces:
        return self.planets[index]

    def with_space(self, space: Forces) -> SideState:
        return _new(SideState, (space, self.planets))

    def with_planet(self, index: int, forces: Forces) -> SideState:
        planets = list(self.planets)
        planets[index] = forces
        return _new(SideState, (self.space, tuple(planets)))

    def area(self, where: int | None) -> Forces:
        """The space area (``None``) or a planet."""
        return self.space if where is None else self.planets[where]

    def with_area(self, where: int | None, forces: Forces) -> SideState:
        if where is None:
            return _new(SideState, (forces, self.planets))
        return self.with_planet(where, forces)

    def to_json(self) -> dict[str, object]:
        return {"space": self.space.to_json(), "planets": [p.to_json() for p in self.planets]}


#: a named tuple built from its fields in order, without the generated ``__new__``'s call
_new = tuple.__new__


def combat_result(attacker_left: int, defender_left: int) -> str:
    """The player with units left in the fight wins; neither: a draw (both destroyed)."""
    if attacker_left and not defender_left:
        return "attacker_win"
    if defender_left and not attacker_left:
        return "defender_win"
    return "draw"
