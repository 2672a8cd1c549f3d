"""Ta Zern (Jol-Nar commander): after you roll dice for a unit ability, you may reroll any of
those dice (ti4-combat-effects.md §5; data/cards.toml). Rerolling a die that hit can only lose
that hit and rerolling a miss can only add one, so the holder rerolls every miss, once
(docs/rulings.md 14D1-6): each group of its unit-ability rolls rerolls its misses
(``DiceGroup.reroll``), set from the setup alone (``ability_dice``): space cannon offense and
defense, anti-fighter barrage, bombardment. A commander is never exhausted: every such roll.
Holding it in ``leaders`` means it is unlocked (14D1-5). Mecatol Rex's SPACE CANNON (I.I.H.Q.
Modernization) is not a unit's and is not rerolled."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Card, register, rerolling_misses
from spacecombat.rulesets.ti4.abilities.space_cannon import NOT_UNITS

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.abilities.base import Roll
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side


@register
class TaZern(Card):
    id = "ta_zern"
    card = "ta_zern"
    asks = None  # it acts without asking: policy.play cannot name it (Handler.asks)

    def ability_dice(
        self, setup: BattleSetup, roller: Side, roll: Roll, groups: tuple[DiceGroup, ...]
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or roll.is_combat_roll:
            return groups
        units = tuple(g for g in groups if g.unit not in NOT_UNITS)
        rerolled = iter(rerolling_misses(units, "Ta Zern"))
        return tuple(g if g.unit in NOT_UNITS else next(rerolled) for g in groups)
