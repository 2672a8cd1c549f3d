"""Naaz-Rokha flagship (Visz El Vir): the owner's mechs in its system roll 1 additional die
during combat (ti4-combat-effects.md, flagships; data/units.toml). While the flagship is in the
space area of the active system, each of the owner's mechs in the fight (a ground combat on a
planet of that system: ti4-ground-combat.md step 1; a space combat if mechs ever roll there)
rolls one more die in each combat roll (docs/rulings.md 14C-7)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

FLAGSHIP = "flagship"
MECH = "mech"


@register
class NaazrokhaFlagshipMechExtraDie(Handler):
    id = "naazrokha_flagship_mech_extra_die"

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        # in a ground combat the pool is keyed by the planet's units: the flagship is elsewhere
        # the flagship also as The Cavalry's ship (docs/rulings.md 14CV-1)
        return roller is self.owner and bool(
            setup.side(roller).count_of(state.side(roller).space, FLAGSHIP)
        )

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if not self.roll_key(setup, state, roller):
            return groups
        where = None if setup.kind == "space" else state.planet
        mechs = state.side(roller).area(where).count(MECH)
        return tuple(replace(g, dice=g.dice + mechs) if g.unit == MECH else g for g in groups)
