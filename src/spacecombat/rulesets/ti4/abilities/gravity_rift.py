"""Gravity rift (anomaly of the active system): a ship that moves out of it, a retreating ship
included, rolls one die just before it leaves and is lost on 1 to 3; units it transports are
lost with it (ti4-space-combat.md note 5; docs/rulings.md R2). Here a die that shows 4 or more
counts as a "hit" meaning the ship got away."""

from __future__ import annotations

from spacecombat.core.pool import DiceGroup, DicePool

#: the smallest face on which a ship leaving a gravity rift survives (1-3 are lost)
SURVIVES_ON = 4


def departure_pool(unit: str, ships: int) -> DicePool:
    """One die per ship of a type leaving the rift; hits are the ships that get away."""
    return DicePool.of([DiceGroup(unit, ships, SURVIVES_ON)])
