"""Small facts the procedures share: where the combat is fought, who fights in it, dice
(who has ships and ground forces: ``core/state.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.state import ground_forces, ships
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState

if TYPE_CHECKING:
    from spacecombat.core.engine import Node


def arena(setup: BattleSetup, state: BattleState) -> int | None:
    """Where the current combat is fought: the space area (``None``) or the invaded planet."""
    return None if setup.kind == "space" else state.planet


def combatants(setup: BattleSetup, state: BattleState, side: Side) -> int:
    """Units of ``side`` that fight in the current combat: ships in space, ground forces on the
    planet in ground combat."""
    where = arena(setup, state)
    if where is None:
        return ships(setup, state, side)
    return ground_forces(setup, state, side, where)


def combat_roll(setup: BattleSetup, state: BattleState, side: Side) -> Roll:
    return Roll.SPACE_COMBAT if arena(setup, state) is None else Roll.GROUND_COMBAT


def combat_pool(setup: BattleSetup, state: BattleState, side: Side) -> DicePool:
    """``side``'s combat roll: one die per unit, or one per burst icon (step 3.1), grouped by
    combat value (step 3.2), rolled in ascending value (step 3.3). Remembered by units."""
    where = arena(setup, state)
    units = state.side(side).area(where)
    key = ("combat_pool", side, where is None, units)
    pool = setup.memo.get(key)
    if pool is None:
        # units that differ only in damage roll the same dice: one pool for them
        counts = tuple(units.by_type().items())
        pool = setup.memo[key] = setup.remembered(
            ("combat_dice", side, where is None, counts),
            lambda: _combat_pool(setup, counts, side, where is None),
        )
    changers = setup.roll_changers
    if changers:
        # handlers that change the roll from the state (a card played this round, a flagship
        # in the fight): keyed by what each reads
        printed = cast("DicePool", pool)
        read = tuple(h.roll_key(setup, state, side) for h in changers)
        changed_key = ("changed_pool", side, where is None, units, read)
        pool = setup.memo.get(changed_key)
        if pool is None:
            groups = printed.groups
            for handler in changers:
                groups = handler.combat_roll(setup, state, side, groups)
            pool = setup.memo[changed_key] = DicePool.of(list(groups))
    return cast("DicePool", pool)


def _combat_pool(
    setup: BattleSetup, counts: tuple[tuple[str, int], ...], side: Side, in_space: bool
) -> DicePool:
    """The pool of units counted by type."""
    cards = setup.side(side)
    fights = cards.ship_types if in_space else cards.ground_force_types
    roll = Roll.SPACE_COMBAT if in_space else Roll.GROUND_COMBAT
    groups = []
    for unit, count in counts:
        combat = cards.card(unit).combat
        if unit in fights and combat is not None:
            if combat.dice is None:  # set by an ability, which adds the group (combat_roll)
                if any(h.sets_combat_dice(side, unit) for h in setup.handlers):
                    continue
                raise RuleNotImplemented(f"the combat dice of {unit}", f"{side.value}'s roll")
            groups.append(
                DiceGroup(unit, count * combat.dice, combat.hit, setup.modifier(side, roll, unit))
            )
    return DicePool.of(groups)


def combat_dice(setup: BattleSetup, state: BattleState, side: Side) -> int:
    """How many dice ``side`` rolls in a combat round now."""
    return combat_pool(setup, state, side).dice


def with_cursor(node: Node[BattleState], cursor: int) -> Node[BattleState]:
    """The same node, but every state it leads to has ``cursor`` set (to step through a window's
    handlers one by one)."""

    from spacecombat.core.engine import Chance, Decision, Step

    def bump(step: Step[BattleState]) -> Step[BattleState]:
        return Step(step.state.changed(cursor=cursor), step.events)

    if isinstance(node, Step):
        return bump(node)
    if isinstance(node, Decision):
        decision = node
        return Decision(decision.request, lambda option: bump(decision.then(option)))
    if isinstance(node, Chance):
        chance = node
        marked, tally = chance.then_marked, chance.then_tally
        return Chance(
            chance.roller,
            chance.purpose,
            chance.pool,
            lambda h: bump(chance.then(h)),
            None if marked is None else (lambda h, m: bump(marked(h, m))),
            None if tally is None else (lambda t: bump(tally(t))),
        )
    return node
