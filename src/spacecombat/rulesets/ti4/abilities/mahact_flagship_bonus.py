"""Mahact Gene-Sorcerers flagship (Arvicon Rex): +2 to this ship's combat rolls against an
opponent whose command token is NOT in the Mahact player's fleet pool (ti4-combat-effects.md,
flagships; data/units.toml). The opponent's condition ``command_token_in_fleet_pool_of_opponent``
(data/cards.toml: "the player's command token is in their opponent's fleet pool") says their
token IS in the Mahact fleet pool: then no bonus; without it, +2 (docs/rulings.md
14C-2). The flagship rolls only in space combat (ti4-space-combat.md step 3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup

#: on the opponent: their command token is in the Mahact player's fleet pool
TOKEN_IN_FLEET_POOL = "command_token_in_fleet_pool_of_opponent"
FLAGSHIP = "flagship"


@register
class MahactFlagshipBonus(Handler):
    id = "mahact_flagship_bonus"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        if roller is not self.owner or not roll.is_combat_roll:
            return 0
        if not setup.side(roller).is_a(unit, FLAGSHIP):  # also as The Cavalry's ship
            return 0
        return 0 if TOKEN_IN_FLEET_POOL in setup.side(roller.other).conditions else 2
