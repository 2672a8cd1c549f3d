"""Nebula (anomaly of the active system): in a space combat there, the defender applies +1
to each of its combat rolls (ti4-combat-effects.md §8; docs/rulings.md). Retreating into a
nebula is handled by the retreat procedure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


@register
class Nebula(Handler):
    id = "nebula"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        return 1 if roll is Roll.SPACE_COMBAT and roller is Side.DEFENDER else 0
