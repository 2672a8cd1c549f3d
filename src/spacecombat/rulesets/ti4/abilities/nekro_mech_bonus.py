"""Nekro Virus mech (Mordred): +2 to its combat rolls against an opponent with an X or Y
assimilator token on one of their technologies (ti4-combat-effects.md, mechs;
data/units.toml), the opponent's condition ``assimilator_token`` (data/cards.toml). Mechs roll
in ground combat (ti4-ground-combat.md step 1), and in a space combat while they participate
with the Alastor, as the unit types ``alastor_mech`` and ``alastor_planet_mech``
(abilities/nekro_flagship_ground_forces_fight.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities import nekro_flagship_ground_forces_fight as alastor
from spacecombat.rulesets.ti4.abilities.base import Handler, Roll, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup

MECH = "mech"
ASSIMILATOR_TOKEN = "assimilator_token"
#: the mech, and the mech fighting as a ship with the Alastor (still a mech)
MECHS = frozenset({MECH, alastor.PREFIX + MECH, alastor.PLANET_PREFIX + MECH})


@register
class NekroMechBonus(Handler):
    id = "nekro_mech_bonus"

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        if roller is not self.owner or not roll.is_combat_roll or unit not in MECHS:
            return 0
        return 2 if ASSIMILATOR_TOKEN in setup.side(roller.other).conditions else 0
