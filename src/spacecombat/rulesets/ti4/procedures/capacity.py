"""Capacity (LRR 16): a player's fighters and ground forces in the space area of a system may
not exceed the capacity of their ships there (16.2); the excess is removed, the owner choosing
what (16.3, 16.3a). Fighter II need no capacity (they have a move value), and each space dock
of the player in the system holds 3 fighters (docs/rulings.md R6). Units that stand in the
space area as structures (``SideSetup.floating``: the Saar's floating factories) add their
capacity value; one that is blockaded is destroyed first, before anything is removed (LRR 14
note 2).

When it is checked in a battle:

- before space cannon offense (LRR 16.3 note 1, docs/rulings.md R31), unless the scenario's
  option ``check_capacity_before_battle`` is false;
- after a player's ships are hit by space cannon offense (R1, R14);
- at the end of combat (ti4-space-combat.md 10.1 and note 1; R6), in ``space_combat.py``.
"""

from __future__ import annotations

from typing import cast

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Forces, Status, describe
from spacecombat.core.hits import destroyed
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

A, D = Side.ATTACKER, Side.DEFENDER

#: the reason logged for a unit removed by the check before the battle
BEFORE_BATTLE = "beyond capacity before the battle"


def capacity_facts(setup: BattleSetup, state: BattleState, side: Side) -> tuple[int, int, int, int]:
    """(capacity, fighters held by space docks, fighters needing capacity, ground forces)."""
    units = state.side(side)
    space, docks = units.space, units.planets[0]
    return setup.remembered(
        ("capacity", side, space, docks), lambda: _capacity_facts(setup, side, space, docks)
    )


def _capacity_facts(
    setup: BattleSetup, side: Side, space: Forces, docks: Forces
) -> tuple[int, int, int, int]:
    cards = setup.side(side)
    capacity = _ship_capacity(setup, space, side)
    exempt = sum(n * cards.card(u).fighter_capacity_exemption for u, _, n in docks)
    fighters = space.total(lambda u: cards.is_fighter(u) and cards.needs_transport(u))
    free = exempt_ground_forces(setup, side) if capacity else frozenset()
    ground = space.total(lambda u: cards.is_ground_force(u) and u not in free)
    # floating units hold units as ships do (not a ship: Aerie Sentinel's exemption still
    # needs a ship's capacity value)
    return capacity + floating_capacity(setup, side, docks), exempt, fighters, ground


def _ship_capacity(setup: BattleSetup, space: Forces, side: Side) -> int:
    cards = setup.side(side)
    return sum(n * (cards.card(u).capacity or 0) for u, _, n in space if cards.is_ship(u))


#: no units (one shared empty value: most battles have no floating units)
_NONE = Forces()


def floating_units(setup: BattleSetup, state: BattleState, side: Side) -> Forces:
    """``side``'s units in the active system that stand in the space area as structures
    (``SideSetup.floating``)."""
    kinds = setup.side(side).floating
    if not kinds:
        return _NONE
    return state.side(side).planets[0].keep(kinds.__contains__)


def floating_capacity(setup: BattleSetup, side: Side, area: Forces) -> int:
    """The capacity of ``side``'s floating units among ``area`` (its structures)."""
    cards = setup.side(side)
    kinds = cards.floating
    if not kinds:
        return 0
    return sum(n * (cards.card(u).capacity or 0) for u, _, n in area if u in kinds)


def blockaded(setup: BattleSetup, state: BattleState) -> tuple[Side, Forces] | None:
    """A player whose floating units are blockaded now (no ships of its own in the active
    system, some of the opponent's: LRR 14), with those units; ``None`` if none is."""
    if not any(setup.side(s).floating for s in SIDES):
        return None  # read at every capacity check: most battles have none
    for side in SIDES:
        here = floating_units(setup, state, side)
        if here and not ships(setup, state, side) and ships(setup, state, side.other):
            return side, here
    return None


def destroy_blockaded(
    setup: BattleSetup, state: BattleState, side: Side, units: Forces
) -> Step[BattleState]:
    """The blockaded ``units`` of ``side`` are destroyed, each with its cause
    (``SideSetup.floating``)."""
    area = state.side(side).planets[0]
    for unit, status, count in units:
        area = area.remove(unit, status, count)
    left = state.with_side(side, state.side(side).with_planet(0, area))
    causes = setup.side(side).floating
    events = tuple(e for item in units for e in destroyed(side, (item,), causes[item[0]]))
    return Step(left, events)


def exempt_ground_forces(setup: BattleSetup, side: Side) -> frozenset[str]:
    """``side``'s ground forces that need no room in a space area where one of its ships has a
    capacity value (Aerie Sentinel: ``Handler.exempt_from_capacity``)."""
    return setup.remembered(
        ("exempt_from_capacity", side),
        lambda: frozenset(
            u
            for u in setup.side(side).ground_force_types
            if any(h.exempt_from_capacity(side, u) for h in setup.handlers)
        ),
    )


def needing_room(setup: BattleSetup, state: BattleState, side: Side) -> tuple[int, int]:
    """(fighters and ground forces that need room on ships, the room the ships have)."""
    capacity, exempt, fighters, ground = capacity_facts(setup, state, side)
    return ground + max(0, fighters - exempt), capacity


def excess(setup: BattleSetup, state: BattleState, side: Side) -> int:
    """Fighters and ground forces in the space area beyond capacity (16.3); but first, any
    player's blockaded floating factories (their number: ``remove_excess`` destroys them)."""
    found = blockaded(setup, state)
    if found is not None:
        return found[1].total()
    units = state.side(side)
    key = ("excess", side, units.space, units.planets[0])
    over = setup.memo.get(key)
    if over is None:
        need, room = needing_room(setup, state, side)
        over = setup.memo[key] = max(0, need - room)
    return cast("int", over)


def remove_excess(
    setup: BattleSetup, state: BattleState, side: Side, over: int, reason: str
) -> Node[BattleState]:
    """The owner chooses which excess unit to remove, one at a time (16.3a); removing a fighter
    is a choice only while fighters outnumber what the space docks hold. A player's blockaded
    floating factories are destroyed before anything is removed (LRR 14 note 2)."""
    found = blockaded(setup, state)
    if found is not None:
        return destroy_blockaded(setup, state, *found)
    cards = setup.side(side)
    space = state.side(side).space
    _, exempt, fighters, _ = capacity_facts(setup, state, side)
    free = exempt_ground_forces(setup, side) if _ship_capacity(setup, space, side) else frozenset()
    options = tuple(
        Option(f"remove {describe(unit, status)}", "remove", unit, status)
        for unit, status, _ in space
        if (cards.is_ground_force(unit) and unit not in free)
        or (cards.is_fighter(unit) and cards.needs_transport(unit) and fighters > exempt)
    )
    request = DecisionRequest(
        decision="remove_excess",
        player=side.value,
        prompt=f"{over} unit(s) in the space area beyond capacity: remove one",
        options=options,
        facts={"excess": over},
    )

    def then(option: Option) -> Step[BattleState]:
        forces = space.remove(option.unit or "", Status(option.status or 0))
        new = state.with_side(side, state.side(side).with_space(forces))
        return Step(
            new, (event("unit_removed", player=side.value, unit=option.unit, reason=reason),)
        )

    return Decision(request, then)


def capacity_before_battle(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """LRR 16.3 note 1: capacity must be met before the Space Cannon Offense step. Each player
    in turn, the attacker first, removes what their ships cannot hold; then space cannon
    offense begins."""
    side = state.turn
    over = excess(setup, state, side)
    if over:
        return remove_excess(setup, state, side, over, BEFORE_BATTLE)
    if side is A:
        return Step(state.at(Phase.CAPACITY_BEFORE_BATTLE, turn=D))
    return Step(state.at(Phase.SPACE_CANNON_OFFENSE, turn=A))
