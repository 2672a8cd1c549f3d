"""The colony's planetary state (7.5–7.6): a small frozen hashable named tuple, part of the
exact engine's key while planetary combat is under way.

Ground batteries, armies and marines are counted, undamaged and crippled: units of one kind are
all alike ("Because ground batteries are all the same, selecting which ground batteries to
target is moot", 7.5.3), so counts say everything about them. Destroyed units are the start's
count less those standing.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from spacecombat.rulesets.ec4x.planetary.tables import planetary


class Colony(NamedTuple):
    """A colony at one moment of planetary combat."""

    #: the house that owns it (it changes on conquest)
    owner: str
    #: the shield's level: 0 none, 1–6 SLD1–SLD6 (7.5.2)
    shield: int
    batteries: int
    batteries_crippled: int
    armies: int
    armies_crippled: int
    #: the garrison's Space Marine Divisions (not the invaders': ``Siege.landed``)
    marines: int
    marines_crippled: int
    spaceports: int
    iu: int
    pu: int

    def at(self, **changes: Any) -> Colony:
        return self._replace(**changes)

    @property
    def battery_count(self) -> int:
        """Ground batteries standing (undamaged or crippled)."""
        return self.batteries + self.batteries_crippled

    @property
    def ground_count(self) -> int:
        """Armies and garrison marines standing."""
        return self.armies + self.armies_crippled + self.marines + self.marines_crippled

    def battery_strength(self) -> int:
        """7.5.1 "the AS strength of all remaining ground batteries"; crippled at half, rounded
        up, each (7.5.3 "Crippled units multiply their AS by 0.5, rounded up")."""
        attack = planetary().units["GB"].attack
        return self.batteries * attack + self.batteries_crippled * half(attack)

    def ground_strength(self) -> int:
        """7.6.1 "Both sides total the AS strength of their Armies and Marines"."""
        units = planetary().units
        army, marine = units["AA"].attack, units["MD"].attack
        return (
            self.armies * army
            + self.armies_crippled * half(army)
            + self.marines * marine
            + self.marines_crippled * half(marine)
        )


def half(attack: int) -> int:
    """7.5.3, 7.6.1: "multiply their AS by 0.5, rounded up to the nearest whole number"."""
    return math.ceil(attack * planetary().crippled_as)


def reduce_alike(
    undamaged: int, crippled: int, hits: int, defense: int
) -> tuple[int, int, int, int, int]:
    """Hits on units all alike, summed (7.5.3 restriction 3): each ``defense`` hits reduce one
    unit one step (restriction 1); none is destroyed while another is not yet crippled
    (restriction 2), so every undamaged unit is crippled before any is destroyed.

    Returns (undamaged, crippled, hits left over, crippled now, destroyed now)."""
    steps = min(hits // defense, 2 * undamaged + crippled)
    crippling = min(steps, undamaged)
    destroying = steps - crippling
    return (
        undamaged - crippling,
        crippled + crippling - destroying,
        hits - steps * defense,
        crippling,
        destroying,
    )
