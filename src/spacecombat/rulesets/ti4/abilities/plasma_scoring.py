"""Plasma Scoring (red technology): whenever your units fire SPACE CANNON or BOMBARDMENT, one of
the firing units rolls 1 additional die (ti4-combat-effects.md §2; data/technologies.toml).
It changes the pool of every such roll from the setup alone (``ability_dice``): space cannon
offense and defense through ``space_cannon.cannon_pool``, bombardment through
``space_cannon.ability_dice``. The die goes to the firing unit likeliest to hit
(docs/rulings.md 14D1-1). Anti-fighter barrage is not affected."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.abilities.space_cannon import one_more_die

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side

#: the rolls it adds a die to
ROLLS = (Roll.SPACE_CANNON_OFFENSE, Roll.SPACE_CANNON_DEFENSE, Roll.BOMBARDMENT)


@register
class PlasmaScoring(Handler):
    id = "plasma_scoring"

    def ability_dice(
        self, setup: BattleSetup, roller: Side, roll: Roll, groups: tuple[DiceGroup, ...]
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or roll not in ROLLS:
            return groups
        return one_more_die(groups)
