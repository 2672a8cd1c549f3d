"""Shared Research (law): units may move through nebulae, but the law does not allow a
retreat into a nebula (ti4-space-combat.md note 4.2). It has no other combat effect, so this
handler deliberately permits nothing; it exists so the law is accepted and tested."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.sides import Side


@register
class SharedResearch(Handler):
    id = "shared_research"

    def permits_anomaly(self, retreater: Side, anomaly: str) -> bool:
        # ti4-space-combat.md note 4.2: "will not allow a player to retreat into a nebula".
        return False
