"""Magmus Reactor (Muaat faction technology): your ships may move, and so retreat, into a
supernova (ti4-space-combat.md note 3)."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.sides import Side


@register
class MagmusReactor(Handler):
    id = "magmus_reactor"

    def permits_anomaly(self, retreater: Side, anomaly: str) -> bool:
        return retreater is self.owner and anomaly == "supernova"
