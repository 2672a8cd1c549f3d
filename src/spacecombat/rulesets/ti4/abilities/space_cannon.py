"""SPACE CANNON: a unit with the ability rolls its dice at the opponent's ships (space cannon
offense, before space combat) or at ground forces committed to its planet (space cannon
defense, during an invasion). The owner of the units hit assigns the hits (docs/rulings.md R1,
R10). Combat-roll modifiers do not apply; space cannon modifiers do (Antimass Deflectors)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.forces import Forces
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


def cannon_pool(setup: BattleSetup, side: Side, units: Forces, roll: Roll) -> DicePool:
    """The space cannon dice of ``units`` (one side's, in the system or on the planet)."""
    return setup.remembered(
        ("cannon_pool", side, units, roll), lambda: _pool(setup, side, units, roll)
    )


def _pool(setup: BattleSetup, side: Side, units: Forces, roll: Roll) -> DicePool:
    cards = setup.side(side)
    groups = []
    for unit, count in units.by_type().items():
        cannon = cards.card(unit).space_cannon
        if cannon is not None:
            modifier = setup.modifier(side, roll, unit)
            groups.append(DiceGroup(unit, count * cannon.dice, cannon.hit, modifier))
    return DicePool.of(groups)
