"""Nekro Virus mech (Mordred): +2 to its combat rolls against an opponent with an X or Y
assimilator token on one of their technologies (ti4-combat-effects.md, mechs;
data/units.toml), the opponent's condition ``assimilator_token`` (data/cards.toml). Mechs roll
in ground combat (ti4-ground-combat.md step 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup

ASSIMILATOR_TOKEN = "assimilator_token"


@register
class NekroMechBonus(Handler):
    id = "nekro_mech_bonus"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        if roller is not self.owner or not roll.is_combat_roll or unit != "mech":
            return 0
        return 2 if ASSIMILATOR_TOKEN in setup.side(roller.other).conditions else 0
