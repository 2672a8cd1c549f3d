"""Aerie Sentinel (Argent Flight mech): it does not count against capacity while transported or
in a space area with one or more of its owner's ships that have a capacity value
(ti4-combat-effects.md; data/units.toml). Read by the capacity checks of the space area
(procedures/capacity.py: before the battle, LRR 16.3 note 1, and after combat, space rule
10.1): while the owner's ships there have some capacity, its mechs need no room and are never
removed as excess. A retreat carrying them is refused by name (docs/rulings.md
14B-12)."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.sides import Side

MECH = "mech"


@register
class ArgentMechCapacityExempt(Handler):
    id = "argent_mech_capacity_exempt"

    def exempt_from_capacity(self, side: Side, unit: str) -> bool:
        return side is self.owner and unit == MECH
