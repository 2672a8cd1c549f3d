"""Trrakan Aun Zulok (Argent commander): when one or more of your units make a roll for a unit
ability, one of them rolls 1 additional die (ti4-combat-effects.md §5; data/cards.toml). A
commander is not exhausted: every unit-ability roll of its holder gets the die, from the setup
alone (``ability_dice``): space cannon offense and defense, anti-fighter barrage (through
``cannon_pool`` and ``barrage_pool``) and bombardment (``space_cannon.ability_dice``). Holding
it in ``leaders`` means it is unlocked, the holder's own or shared by the Alliance note
(docs/rulings.md 14D1-5). The die goes to the unit likeliest to hit (14D1-1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.space_cannon import one_more_die

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.abilities.base import Roll
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side


@register
class TrrakanAunZulok(Card):
    id = "trrakan_aun_zulok"
    card = "trrakan_aun_zulok"
    asks = None  # it acts without asking: policy.play cannot name it (Handler.asks)

    def ability_dice(
        self, setup: BattleSetup, roller: Side, roll: Roll, groups: tuple[DiceGroup, ...]
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or roll.is_combat_roll:
            return groups
        return one_more_die(groups)
