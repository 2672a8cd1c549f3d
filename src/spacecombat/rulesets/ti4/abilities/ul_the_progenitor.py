"""Ul the Progenitor (Titans hero): attached to Elysium, it gives the planet SPACE CANNON 5 (x3)
as if it were a unit (ti4-combat-effects.md §5; data/cards.toml). The hero is an ACTION taken
outside a battle: listing it in ``leaders`` means it has been attached to Elysium. Elysium is
the Titans' home planet: a scenario says the battle is in its system with the holder's
condition ``home_system`` (docs/rulings.md 14D1-11). The holder's space cannon
offense, and its space cannon defense when Elysium is invaded, then roll 3 more dice hitting
on 5 (``cannon_groups``); as the planet counts as a unit, Plasma Scoring, Trrakan Aun Zulok and
Ta Zern act on them as on any unit's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets.ti4.abilities.base import Card, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.abilities.base import Roll
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side

#: the player condition (data/cards.toml) that says the active system is the holder's home
HOME_SYSTEM = "home_system"
#: the dice group's name, and the planet's SPACE CANNON 5 (x3)
ELYSIUM = "elysium"
HIT, DICE = 5, 3


@register
class UlTheProgenitor(Card):
    id = "ul_the_progenitor"
    card = "ul_the_progenitor"
    asks = None  # it acts without asking: policy.play cannot name it (Handler.asks)

    def cannon_groups(self, setup: BattleSetup, roller: Side, roll: Roll) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or HOME_SYSTEM not in setup.side(roller).conditions:
            return ()
        return (DiceGroup(ELYSIUM, DICE, HIT, setup.modifier(roller, roll, ELYSIUM)),)
