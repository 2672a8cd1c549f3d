"""Jol-Nar mech (Shield Paling): the owner's infantry on its planet are not affected by FRAGILE
(ti4-combat-effects.md, mechs; data/units.toml). In a ground combat (ti4-ground-combat.md step
1) on a planet where the owner has a mech when the roll is made, the owner's infantry roll
without Fragile's -1 (the +1 here cancels it); once the last mech there is destroyed, Fragile
applies again (docs/rulings.md 14C-3). Without Fragile in play it does nothing."""

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

FRAGILE = "fragile"


@register
class JolnarMechIgnoreFragile(Handler):
    id = "jolnar_mech_ignore_fragile"
    #: reads the set-up and the roller's units on the planet alone (product form kept)
    keeps_product_form = frozenset({"combat_roll"})

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        # the roller's units on the planet (which key the pool already) say it all
        return None

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or setup.kind == "space":
            return groups
        if not any(h.id == FRAGILE and h.owner is roller for h in setup.handlers):
            return groups
        if not state.side(roller).area(state.planet).count("mech"):
            return groups
        return tuple(
            replace(g, modifier=g.modifier + 1) if g.unit == "infantry" else g for g in groups
        )
