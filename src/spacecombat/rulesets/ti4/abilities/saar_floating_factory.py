"""Floating Factory I and II (the Saar space docks, data/units.toml): the unit stands in the
space area instead of on a planet, moves and retreats as if it were a ship without being one,
and is destroyed if it is blockaded. Its capacity value (4, 5) holds the Saar's fighters and
ground forces in the space area (procedures/capacity.py).

LRR 14 (Blockaded): a player's unit with PRODUCTION is blockaded in a system that holds none
of that player's ships and some of another player's ships; note 2: at the end of a combat, the
blockade comes before fighters beyond capacity are removed. The factory is therefore destroyed
by every capacity check of the battle (procedures/capacity.py ``excess``, ``remove_excess``:
before the battle, after space cannon offense, at the end of combat), first thing, as soon as
its player has no ships left in the active system while the opponent has some
(docs/rulings.md 14F-1).

The scenario lists the factory among the side's ``units`` of a space battle; the engine keeps
it with the side's structures (the planets area of the state), where nothing of the space
combat reaches it (it is not a ship: never hit, never rolls). A space area left without ships
of either player keeps the ground forces the factory, not blockaded, holds within its capacity
(procedures/space_combat.py ``end_of_combat``). When its player retreats, the factory goes
with the ships, its capacity carrying fighters and ground forces with theirs
(procedures/retreat.py ``floating_factories``; docs/rulings.md 14K-5); out of a gravity rift
it rolls to leave as a ship does, its cargo with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Step
from spacecombat.core.forces import Forces
from spacecombat.core.hits import destroyed
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.sides import SIDES, Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

ID = "saar_floating_factory"

#: the cause of the ``unit_destroyed`` event of a blockaded factory
BLOCKADED = "blockaded (Floating Factory)"


@register
class FloatingFactory(Handler):
    id = ID

    # Its rules are read by the procedures: capacity.py (capacity and the blockade) and
    # retreat.py (it retreats with its player's ships).


def floating_factory_types(setup: BattleSetup, side: Side) -> frozenset[str]:
    """``side``'s unit types that are floating factories (in a space battle; in an invasion
    the factory plays no part: core/setup.py ``check_invasion_places`` refuses it on a
    planet)."""

    def find() -> frozenset[str]:
        if setup.kind != "space":
            return frozenset()
        cards = setup.side(side).cards
        return frozenset(
            unit
            for unit, card in cards.items()
            if any(a.combat == "rule" and a.handler == ID for a in card.abilities)
        )

    return setup.remembered(("floating_factory_types", side), find)


#: no units (one shared empty value: most battles have no floating factory)
_NONE = Forces()


def factories_of(setup: BattleSetup, state: BattleState, side: Side) -> Forces:
    """``side``'s floating factories in the active system."""
    kinds = floating_factory_types(setup, side)
    if not kinds:
        return _NONE
    return state.side(side).planets[0].keep(kinds.__contains__)


def factory_capacity(setup: BattleSetup, side: Side, area: Forces) -> int:
    """The capacity of ``side``'s floating factories among ``area`` (its structures)."""
    kinds = floating_factory_types(setup, side)
    if not kinds:
        return 0
    cards = setup.side(side)
    return sum(n * (cards.card(u).capacity or 0) for u, _, n in area if u in kinds)


def blockaded(setup: BattleSetup, state: BattleState) -> tuple[Side, Forces] | None:
    """A player whose floating factories are blockaded now (no ships of its own in the active
    system, some of the opponent's), with those factories; ``None`` if none is."""
    if not setup.remembered(
        "floating_factories", lambda: any(floating_factory_types(setup, s) for s in SIDES)
    ):
        return None  # read at every capacity check: most battles have none
    for side in SIDES:
        here = factories_of(setup, state, side)
        if here and not ships(setup, state, side) and ships(setup, state, side.other):
            return side, here
    return None


def destroy_blockaded(state: BattleState, side: Side, factories: Forces) -> Step[BattleState]:
    """The blockaded ``factories`` of ``side`` are destroyed."""
    area = state.side(side).planets[0]
    for unit, status, count in factories:
        area = area.remove(unit, status, count)
    left = state.with_side(side, state.side(side).with_planet(0, area))
    return Step(left, destroyed(side, factories, BLOCKADED))
