"""BOMBARDMENT: during an invasion, each unit with the ability may roll its dice at one planet;
each hit destroys one of the defender's ground forces there, the defender choosing which
(docs/rulings.md R9). A planetary shield blocks it (planetary_shield.py). Combat-roll
modifiers do not apply. Handlers change the dice from the state (``bombardment_roll``: Bunker,
Blitz) or forbid it at a planet (``forbids_bombardment``: Conventions of War)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from spacecombat.core.forces import Forces
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.abilities.planetary_shield import stops_bombardment
from spacecombat.rulesets.ti4.abilities.space_cannon import ability_dice, forbidden
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


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


def bombardment_dice(
    setup: BattleSetup, state: BattleState, side: Side, planet: int, allotted: Mapping[str, int]
) -> DicePool:
    """``side``'s BOMBARDMENT roll at ``planet`` by its units ``allotted`` there: the printed
    dice, changed by each handler in order from the state (``bombardment_roll``: Blitz arms
    more ships, Bunker lowers every die), then by those that change every unit-ability roll
    (``space_cannon.ability_dice``: Plasma Scoring adds a die to one of the firing units,
    those Blitz armed included). None when a handler forbids the ability
    (``forbids_unit_ability``)."""
    if forbidden(setup, side, Roll.BOMBARDMENT):
        return DicePool(())
    groups = bombardment_pool(setup, side, state.side(side).space, allotted).groups
    for handler in setup.handlers:
        groups = handler.bombardment_roll(setup, state, side, planet, groups)
    return DicePool.of(list(ability_dice(setup, side, Roll.BOMBARDMENT, groups)))


def bombardment_forbidden(setup: BattleSetup, planet: int) -> str | None:
    """Why no BOMBARDMENT may be fired at ``planet`` (a law), or ``None``."""
    for handler in setup.handlers:
        reason = handler.forbids_bombardment(setup, planet)
        if reason is not None:
            return reason
    return None


def bombarded_planets(setup: BattleSetup, state: BattleState) -> list[tuple[int, DicePool]]:
    """The planets the attacker's units allotted there will bombard at the start of an invasion,
    with their dice: planets with the defender's ground forces, no law forbidding it, no
    planetary shield stopping it, and dice to roll (Scramble Frequency and Strike Wing Ambuscade
    read them before the first roll)."""
    found = []
    for p in range(len(setup.planets)):
        if not ground_forces(setup, state, Side.DEFENDER, p):
            continue
        if bombardment_forbidden(setup, p) is not None:
            continue
        if stops_bombardment(setup, state, Side.DEFENDER, p):
            continue
        pool = bombardment_dice(setup, state, Side.ATTACKER, p, setup.bombarded_by[p])
        if pool.groups:
            found.append((p, pool))
    return found
