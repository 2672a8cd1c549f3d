"""ANTI-FIGHTER BARRAGE: in the first round of a space combat only, each unit with the ability
rolls its dice; each hit destroys one of the opponent's fighters; hits beyond the fighters
present are lost (ti4-space-combat.md step 1; docs/rulings.md R15). Combat-roll modifiers do
not apply (R5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.forces import Forces
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


def barrage_pool(setup: BattleSetup, side: Side, space: Forces) -> DicePool:
    """The anti-fighter barrage dice of ``side``'s units in the space area."""
    return setup.remembered(("barrage_pool", side, space), lambda: _pool(setup, side, space))


def _pool(setup: BattleSetup, side: Side, space: Forces) -> DicePool:
    cards = setup.side(side)
    groups = []
    for unit, count in space.by_type().items():
        barrage = cards.card(unit).anti_fighter_barrage
        if barrage is not None:
            modifier = setup.modifier(side, Roll.ANTI_FIGHTER_BARRAGE, unit)
            groups.append(DiceGroup(unit, count * barrage.dice, barrage.hit, modifier))
    return DicePool.of(groups)


def is_target(setup: BattleSetup, side: Side, unit: str) -> bool:
    """Anti-fighter barrage hits only fighters."""
    return setup.side(side).is_fighter(unit)
