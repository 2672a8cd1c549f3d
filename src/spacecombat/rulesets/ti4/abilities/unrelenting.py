"""Unrelenting (Sardakk N'orr faction ability): +1 to each of your combat rolls
(ti4-combat-effects.md §3). Combat rolls are those of space and ground combat rounds, not
unit-ability rolls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


@register
class Unrelenting(Handler):
    id = "unrelenting"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        return 1 if roller is self.owner and roll.is_combat_roll else 0
