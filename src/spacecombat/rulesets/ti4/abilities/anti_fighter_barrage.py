"""ANTI-FIGHTER BARRAGE: in the first round of a space combat only, each unit with the ability
rolls its dice; each hit destroys one of the opponent's fighters; hits beyond the fighters
present are lost (ti4-space-combat.md step 1; docs/rulings.md R15). Combat-roll modifiers do
not apply (R5). Handlers may forbid the roll or change its dice, as for SPACE CANNON
(space_cannon.py: ``forbidden``, ``ability_dice``), and from the state (``barrage_roll``:
Strike Wing Ambuscade, Munitions Reserves). A group may count marks (natural faces at or above
its ``mark_on``): each mark destroys one of the opponent's infantry in the space area (Strike
Wing Alpha II; ``infantry_destroyed``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.events import Event
from spacecombat.core.forces import Forces, Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import Roll
from spacecombat.rulesets.ti4.abilities.nekro_flagship_ground_forces_fight import PLANET_PREFIX
from spacecombat.rulesets.ti4.abilities.space_cannon import ability_dice, forbidden
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

AFB = Roll.ANTI_FIGHTER_BARRAGE
#: the infantry a barrage mark destroys
INFANTRY = "infantry"
#: the ``cause`` of the infantry destroyed by barrage marks
MARK_CAUSE = "anti-fighter barrage (Strike Wing Alpha II)"


def barrage_pool(setup: BattleSetup, side: Side, space: Forces) -> DicePool:
    """The anti-fighter barrage dice of ``side``'s units in the space area."""
    return setup.remembered(("barrage_pool", side, space), lambda: _pool(setup, side, space))


def _pool(setup: BattleSetup, side: Side, space: Forces) -> DicePool:
    if forbidden(setup, side, Roll.ANTI_FIGHTER_BARRAGE):
        return DicePool(())
    cards = setup.side(side)
    groups = []
    for unit, count in space.by_type().items():
        barrage = cards.card(unit).anti_fighter_barrage
        if barrage is not None:
            modifier = setup.modifier(side, Roll.ANTI_FIGHTER_BARRAGE, unit)
            groups.append(DiceGroup(unit, count * barrage.dice, barrage.hit, modifier))
    return DicePool.of(list(ability_dice(setup, side, Roll.ANTI_FIGHTER_BARRAGE, tuple(groups))))


def is_target(setup: BattleSetup, side: Side, unit: str) -> bool:
    """Anti-fighter barrage hits only fighters."""
    return setup.side(side).is_fighter(unit)


def barrage_roll(setup: BattleSetup, state: BattleState, roller: Side) -> DicePool:
    """``roller``'s anti-fighter barrage dice now: ``barrage_pool`` of its units in the space
    area, as the handlers change it from the state (``ability_roll``)."""
    pool = barrage_pool(setup, roller, state.side(roller).space)
    changers = setup.answering("ability_roll")
    if not changers or not pool.groups:
        return pool
    groups = pool.groups
    for handler in changers:
        groups = handler.ability_roll(setup, state, roller, AFB, groups)
    return DicePool.of(list(groups))


def infantry_destroyed(
    setup: BattleSetup, state: BattleState, side: Side, marks: int
) -> tuple[BattleState, tuple[Event, ...]]:
    """``marks`` of ``side``'s infantry in the space area destroyed (as many as there are), and
    the ``unit_destroyed`` events. Infantry fighting as ships with the Alastor from the space
    area are infantry there too, after the others; those from a planet are on their planet
    (docs/rulings.md 14AL-5)."""
    kinds = sorted(
        (u for u in setup.side(side).of_type(INFANTRY) if PLANET_PREFIX not in u),
        key=lambda u: (u != INFANTRY, u),
    )
    forces = state.side(side).space
    events: list[Event] = []
    for unit in kinds:
        count = min(marks - len(events), forces.count(unit, Status.UNDAMAGED))
        if count > 0:
            forces = forces.remove(unit, Status.UNDAMAGED, count)
            events += [unit_destroyed(side, unit, Status.UNDAMAGED, MARK_CAUSE)] * count
    if not events:
        return state, ()
    return state.with_side(side, state.side(side).with_space(forces)), tuple(events)
