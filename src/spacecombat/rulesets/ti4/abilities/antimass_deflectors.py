"""Antimass Deflectors (blue technology).

- Other players' SPACE CANNON rolls against your units get -1 (ti4-combat-effects.md §1).
- You may retreat into an asteroid field (ti4-space-combat.md note 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


@register
class AntimassDeflectors(Handler):
    id = "antimass_deflectors"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        return -1 if roll.is_space_cannon and roller is not self.owner else 0

    def permits_anomaly(self, retreater: Side, anomaly: str) -> bool:
        return retreater is self.owner and anomaly == "asteroid_field"
