"""Step 5 – Retreat (ti4-space-combat.md): an announced retreat must happen if an eligible
system remains, unless the opponent has no ships left (5.1). The player moves all ships with a
move value to one adjacent eligible system (5.2, 5.3), carrying fighters and ground forces
within capacity (notes 10–12); what cannot be carried is removed. Leaving a gravity rift, each
ship rolls (note 5). A command token is placed in the destination (5.4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from spacecombat.core.cargo import Hold, hold_key, stow_cargo
from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces, Status, describe
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities import gravity_rift
from spacecombat.rulesets.ti4.effects import (
    eligible_systems,
    overriding,
    skilled_systems,
)
from spacecombat.rulesets.ti4.procedures.capacity import (
    exempt_ground_forces,
    floating_capacity,
    floating_units,
)
from spacecombat.rulesets.ti4.setup import AdjacentSystem, BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Mark, Phase, Retreat


def _destinations(setup: BattleSetup, state: BattleState, side: Side) -> tuple[AdjacentSystem, ...]:
    if state.marked(side, Mark.SKILLED_RETREAT):
        return skilled_systems(setup, side)
    return eligible_systems(setup, side)


def retreat(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Carry out an announced retreat, one sub-step at a time."""
    current = state.retreat
    if current is None:
        return _begin(setup, state)
    if current.done:
        return Step(state.at(Phase.END_OF_ROUND))
    if current.destination is None:
        for handler in overriding(setup, "before_retreat"):
            # units fighting from a planet stay there (docs/rulings.md 14AL-3)
            node = handler.before_retreat(setup, state, current.side)
            if node is not None:
                return node
        return _choose_destination(setup, state, current)
    if current.loading:
        return _transport(setup, state, current)
    return _depart(setup, state, current)


def _begin(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    announced = [side for side in SIDES if state.has_announced(side)]
    if not announced:
        return Step(state.at(Phase.END_OF_ROUND))
    side = announced[0]
    if ships(setup, state, side.other) == 0:
        return Step(
            state.at(Phase.END_OF_ROUND),
            (
                event(
                    "retreat_cancelled", player=side.value, reason="the opponent has no ships left"
                ),
            ),
        )
    if ships(setup, state, side) == 0:
        return Step(state.at(Phase.END_OF_ROUND))
    if not eligible_systems(setup, side):
        return Step(
            state.at(Phase.END_OF_ROUND),
            (event("retreat_cancelled", player=side.value, reason="no eligible system"),),
        )
    return Step(state.at(Phase.RETREAT, retreat=Retreat(side)))


def floating_factories(setup: BattleSetup, state: BattleState, side: Side) -> Forces:
    """``side``'s floating units in the active system (``SideSetup.floating``: the Saar's
    floating factories): they retreat with its ships, as if they were ships (docs/rulings.md
    14K-5)."""
    return floating_units(setup, state, side)


def _free_cargo(setup: BattleSetup, state: BattleState, side: Side) -> frozenset[str]:
    """``side``'s ground forces that need no room when transported (Aerie Sentinel), when a
    retreating ship (or floating factory) can transport at all: a capacity value above 0
    (docs/rulings.md 14B-12, 14K-5)."""
    free = exempt_ground_forces(setup, side)
    if not free or _capacity(setup, state, side) <= 0:
        return frozenset()
    return free


def _capacity(setup: BattleSetup, state: BattleState, side: Side) -> int:
    """The capacity of ``side``'s retreating ships and floating factories."""
    cards = setup.side(side)
    units = state.side(side)
    ships_capacity = sum(
        n * (cards.card(u).capacity or 0) for u, _, n in units.space if cards.can_move(u)
    )
    return ships_capacity + floating_capacity(setup, side, units.planets[0])


def _choose_destination(
    setup: BattleSetup, state: BattleState, current: Retreat
) -> Node[BattleState]:
    side = current.side
    options = tuple(
        Option(f"to {s.name}", "to", target=s.name) for s in _destinations(setup, state, side)
    )
    request = DecisionRequest(
        "retreat_destination", side.value, "choose the system to retreat to", options
    )

    def then(option: Option) -> Step[BattleState]:
        return Step(
            state.at(
                Phase.RETREAT, retreat=replace(current, destination=option.target, loading=True)
            )
        )

    return Decision(request, then)


def _capacity_left(setup: BattleSetup, state: BattleState, current: Retreat) -> int:
    free = _free_cargo(setup, state, current.side)
    taken = current.carried.plus(current.from_planet)
    return _capacity(setup, state, current.side) - taken.total(lambda u: u not in free)


def _transport(setup: BattleSetup, state: BattleState, current: Retreat) -> Node[BattleState]:
    """Notes 10–12: carry fighters and ground forces within capacity. Units in the space area
    may not be left behind while capacity is unused, unless that capacity went to ground forces
    taken from planets; ground forces on planets need not be taken."""
    side = current.side
    cards = setup.side(side)
    room = _capacity_left(setup, state, current)
    free = _free_cargo(setup, state, side)
    # units that need no room go along from the space area without being chosen (14K-5)
    space_cargo = _uncarried(
        state.side(side).space.keep(lambda u: cards.needs_transport(u) and u not in free),
        current.carried,
    )
    on_planet = _uncarried(
        state.side(side).planets[0].keep(cards.is_ground_force), current.from_planet
    )
    options: list[Option] = []
    if room > 0:
        options += [Option(f"carry {describe(u, s)}", "carry", u, s) for u, s, _ in space_cargo]
    options += [
        Option(f"carry {describe(u, s)} from planets", "carry_from_planet", u, s)
        for u, s, _ in on_planet
        if room > 0 or u in free
    ]
    if room <= 0 or not space_cargo:
        options.append(Option("done", "done"))
    request = DecisionRequest(
        "retreat_transport",
        side.value,
        f"retreating to {current.destination}: choose a unit to carry ({room} capacity left)",
        tuple(options),
        facts={"capacity_left": room},
    )

    def then(option: Option) -> Step[BattleState]:
        unit, status = option.unit or "", Status(option.status or 0)
        if option.action == "carry":
            nxt = replace(current, carried=current.carried.add(unit, status))
        elif option.action == "carry_from_planet":
            nxt = replace(current, from_planet=current.from_planet.add(unit, status))
        else:
            nxt = replace(current, loading=False)
        return Step(state.at(Phase.RETREAT, retreat=nxt))

    return Decision(request, then)


def _uncarried(available: Forces, taken: Forces) -> Forces:
    items = []
    for unit, status, count in available:
        left = count - taken.count(unit, status)
        if left > 0:
            items.append((unit, status, left))
    return Forces(items)


def _depart(setup: BattleSetup, state: BattleState, current: Retreat) -> Node[BattleState]:
    """The ships leave. From a gravity rift (note 5; docs/rulings.md R2) the player first says
    which ship carries each transported unit; then each ship rolls, and a ship lost takes its
    cargo with it."""
    side = current.side
    movers = state.side(side).space.keep(setup.side(side).can_move)
    if setup.system.anomaly != "gravity_rift":
        return _arrive(setup, state, current, movers)
    holds = current.holds
    if holds is None:
        # a floating factory leaves as if it were a ship: it rolls, and may carry (14K-5)
        leaving = movers.plus(floating_factories(setup, state, side))
        holds = tuple((u, s, Forces()) for u, s, n in leaving for _ in range(n))
        return Step(state.at(Phase.RETREAT, retreat=replace(current, holds=holds)))
    cargo = current.carried.plus(current.from_planet).plus(_going_along(setup, state, side))
    unstowed = _uncarried(cargo, _total(h[2] for h in holds))
    if unstowed:
        return _stow(setup, state, current, holds, unstowed)
    groups = sorted(Counter(holds).items(), key=lambda g: hold_key(g[0]))
    if current.rolled < len(groups):
        return _leave_rift(state, current, *groups[current.rolled])
    return _arrive(setup, state, current, current.arrived)


def _total(parts: Iterable[Forces]) -> Forces:
    total = Forces()
    for part in parts:
        total = total.plus(part)
    return total


def _stow(
    setup: BattleSetup,
    state: BattleState,
    current: Retreat,
    holds: tuple[Hold, ...],
    unstowed: Forces,
) -> Node[BattleState]:
    """Which ship carries the next transported unit: one option per kind of ship and load."""
    side = current.side
    cards = setup.side(side)
    unit, status, _ = unstowed.items[0]
    free = _free_cargo(setup, state, side)

    def has_room(ship: str, cargo: Forces) -> bool:
        capacity = cards.card(ship).capacity or 0
        return (unit in free and capacity > 0) or cargo.total(lambda u: u not in free) < capacity

    def stowed(changed: tuple[Hold, ...]) -> Step[BattleState]:
        nxt = replace(current, holds=changed)
        return Step(state.at(Phase.RETREAT, retreat=nxt))

    return stow_cargo(side, holds, unit, status, has_room, stowed)


def _leave_rift(state: BattleState, current: Retreat, hold: Hold, count: int) -> Node[BattleState]:
    """``count`` identical ships (same type, status and cargo) roll to leave the rift."""
    side = current.side
    ship, status, cargo = hold
    label = describe(ship, status) + (f" carrying {cargo}" if cargo else "")

    def then(survivors: int) -> Step[BattleState]:
        arrived = current.arrived.add(ship, status, survivors)
        for _ in range(survivors):
            arrived = arrived.plus(cargo)
        lost = count - survivors
        # docs/rulings.md R2: a ship lost to the rift is removed, not destroyed; so is its cargo.
        reason = "lost leaving the gravity rift"
        gone = Forces([(ship, status, lost)])
        for _ in range(lost):
            gone = gone.plus(cargo)
        events = tuple(
            event("unit_removed", player=side.value, unit=u, reason=reason)
            for u, _, n in gone
            for _ in range(n)
        )
        nxt = replace(
            current,
            arrived=arrived,
            rolled=current.rolled + 1,
        )
        return Step(state.at(Phase.RETREAT, retreat=nxt), events)

    return Chance(side.value, "gravity_rift", gravity_rift.departure_pool(label, count), then)


def _arrive(
    setup: BattleSetup, state: BattleState, current: Retreat, leaving: Forces
) -> Step[BattleState]:
    side = current.side
    cards = setup.side(side)
    space = state.side(side).space
    along = _going_along(setup, state, side)
    left_behind = _uncarried(space.keep(cards.needs_transport), current.carried.plus(along))
    events: list[Event] = [
        event("unit_removed", player=side.value, unit=u, reason="could not be transported")
        for u, _, n in left_behind
        for _ in range(n)
    ]
    factories = floating_factories(setup, state, side)
    if setup.system.anomaly == "gravity_rift":
        # the cargo that got away came with its ships (and factories: they rolled as ships)
        arrived = leaving
    else:
        arrived = leaving.plus(current.carried).plus(current.from_planet).plus(along)
        arrived = arrived.plus(factories)
    planets = state.side(side).planets[0]
    for unit, status, count in current.from_planet.plus(factories):
        planets = planets.remove(unit, status, count)
    moved = state.with_side(side, state.side(side).with_space(Forces()).with_planet(0, planets))
    events.append(
        event(
            "retreated",
            player=side.value,
            to=current.destination,
            units=arrived.settle_round().to_json(),
        )
    )
    if arrived:
        events.append(_command_token(setup, side, current.destination or ""))
    # The round ends for the units that left too: damage sustained this round is plain damage.
    done = replace(current, arrived=arrived.settle_round(), done=True)
    if state.marked(side, Mark.SKILLED_RETREAT):
        # Skilled Retreat: "the space combat ends in a draw" (docs/rulings.md 14B3-1)
        ended = moved.at(Phase.END_OF_ROUND, retreat=done, result="draw")
        return Step(ended, tuple(events))
    return Step(moved.at(Phase.END_OF_ROUND, retreat=done), tuple(events))


def _going_along(setup: BattleSetup, state: BattleState, side: Side) -> Forces:
    """``side``'s units in the space area that go with a retreat without being chosen: those
    that need no room when transported (Aerie Sentinel), when a ship can transport them."""
    free = _free_cargo(setup, state, side)
    if not free:
        return Forces()
    return state.side(side).space.keep(free.__contains__)


def _command_token(setup: BattleSetup, side: Side, destination: str) -> Event:
    """Step 5.4: one command token in the destination, from reinforcements, else from the
    command sheet; none if the player already has one there."""
    system = next(s for s in setup.system.adjacent if s.name == destination)
    if side.value in system.command_tokens:
        return event("command_token_not_needed", player=side.value, system=destination)
    tokens = setup.side(side).reinforcement_tokens
    source = "reinforcements" if tokens is None or tokens > 0 else "command sheet"
    return event("command_token_placed", player=side.value, system=destination, source=source)
