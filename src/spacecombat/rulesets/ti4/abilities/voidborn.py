"""Voidborn (Empyrean faction ability): nebulae do not affect the Empyrean's movement, so the
Empyrean player may retreat into a nebula (ti4-space-combat.md note 4.1)."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.sides import Side


@register
class Voidborn(Handler):
    id = "voidborn"

    def permits_anomaly(self, retreater: Side, anomaly: str) -> bool:
        return retreater is self.owner and anomaly == "nebula"
