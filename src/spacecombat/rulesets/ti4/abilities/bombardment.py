"""BOMBARDMENT: during an invasion, each unit with the ability may roll its dice at one planet;
each hit destroys one of the defender's ground forces there, the defender choosing which
(docs/rulings.md R9). A planetary shield blocks it (planetary_shield.py). Combat-roll
modifiers do not apply."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from spacecombat.core.forces import Forces
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


def bombardment_pool(
    setup: BattleSetup, side: Side, space: Forces, allotted: Mapping[str, int]
) -> DicePool:
    """The bombardment dice of the units allotted to a planet (as many as are still there)."""
    cards = setup.side(side)
    present = space.by_type()
    groups = []
    for unit, count in allotted.items():
        roll = cards.card(unit).bombardment
        firing = min(count, present.get(unit, 0))
        if roll is not None and firing:
            modifier = setup.modifier(side, Roll.BOMBARDMENT, unit)
            groups.append(DiceGroup(unit, firing * roll.dice, roll.hit, modifier))
    return DicePool.of(groups)
