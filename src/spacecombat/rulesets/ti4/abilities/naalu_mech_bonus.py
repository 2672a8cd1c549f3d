"""Naalu Collective mech (Iconoclast, original Prophecy of Kings text): +2 to its combat rolls
against an opponent who holds at least 1 relic fragment (ti4-combat-effects.md, mechs;
data/units.toml), the opponent's condition ``relic_fragment`` (data/cards.toml). Mechs roll in
ground combat (ti4-ground-combat.md step 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup

RELIC_FRAGMENT = "relic_fragment"


@register
class NaaluMechBonus(Handler):
    id = "naalu_mech_bonus"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        if roller is not self.owner or not roll.is_combat_roll or unit != "mech":
            return 0
        return 2 if RELIC_FRAGMENT in setup.side(roller.other).conditions else 0
