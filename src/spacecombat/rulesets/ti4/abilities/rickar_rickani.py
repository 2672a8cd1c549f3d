"""Rickar Rickani (Winnu commander, a leader its holder has unlocked): +2 to the holder's
combat rolls (space and ground combat: ti4-space-combat.md step 3, ti4-ground-combat.md step 1)
in the Mecatol Rex system, in the holder's home system and in each system that contains a
legendary planet (ti4-combat-effects.md, leaders; data/cards.toml). Read from the system's
features ``mecatol_rex`` / ``legendary_planet`` and the holder's condition ``home_system``. It
is not played: while held, it acts on every combat roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup

SYSTEMS = frozenset({"mecatol_rex", "legendary_planet"})
HOME_SYSTEM = "home_system"


@register
class RickarRickani(Handler):
    id = "rickar_rickani"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        if roller is not self.owner or not roll.is_combat_roll:
            return 0
        there = bool(SYSTEMS & setup.system.features)
        home = HOME_SYSTEM in setup.side(roller).conditions
        return 2 if there or home else 0
