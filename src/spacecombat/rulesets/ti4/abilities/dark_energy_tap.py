"""Dark Energy Tap (blue technology, PoK): you may retreat into a system that holds none of
your units and no planet you control (ti4-space-combat.md note 8). The system still must not
hold another player's ships (step 5.3)."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.sides import Side


@register
class DarkEnergyTap(Handler):
    id = "dark_energy_tap"

    def permits_system_without_presence(self, retreater: Side) -> bool:
        return retreater is self.owner
