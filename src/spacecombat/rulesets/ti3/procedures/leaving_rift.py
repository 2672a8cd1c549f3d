"""Ships leaving a TI3 gravity rift (docs/rulings.md 27M-3, 27Q-2 to 27Q-6;
rulesets/ti3/gravity_rift.py).

PC_Twi (``GameEffects/CommonGameEffect.cpp``, ``e_GravityRift``): each unit with a move value
moving out of the rift rolls a die and is destroyed on 1-5 (``SAVE_ROLL = 5``; option
``gravity_rift_destroyed_at_most``, TI4's rule is 1-3). In a battle a fleet leaves the rift by
a withdrawal or retreat (its Execute Withdrawals step, Skilled Retreat, the Naalu's retreat,
Rule of Terror): all of them move the whole fleet out of the system at once
(``fleet_withdraws``, the fleet kept as ``away``) and end the battle. Its units roll once it is
over, before its result is settled: nothing in the battle reaches them after they left, so
the outcomes are those of rolling as they leave. A unit lost is removed (``unit_removed``,
"lost leaving the gravity rift", as TI4's), not destroyed by a hit. A "hit" of the dice is a
unit that gets away.

The units the fleet carries (``gravity_rift.flies``: fighters without Advanced Fighters,
ground forces) do not roll (27Q-3). With the option ``gravity_rift_cargo: aboard`` (the
default):

1. Capacity: what the leaving ships cannot carry is left behind and lost (``remove_excess``,
   its owner choosing, one unit at a time; 27Q-5).
2. Stowing: its owner names the ship that carries each carried unit (``stow_cargo``, one
   option per kind of ship and load with room; ``Ti3State.holds``).
3. The dice: each group of alike ships (type, status and load) rolls one die per ship; a ship
   lost takes what it carries with it (27Q-3); a ship that gets away keeps its load, and its
   room left over saves nothing of another's (27Q-6).

With ``capacity`` the ships roll alone, one roll per type and status of ship
(``Ti3State.rift_rolled`` counts those rolled that still have ships), and the capacity check
after the move (procedures/fleet_check.py) removes what the ships that got away cannot carry.
"""

from __future__ import annotations

from collections import Counter

from spacecombat.core.cargo import Hold, hold_key, stow_cargo
from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Chance, Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Forces, Status, describe
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.gravity_rift import ANOMALY, flies
from spacecombat.rulesets.ti3.setup import Ti3Setup, Ti3Side
from spacecombat.rulesets.ti3.state import Ti3State

#: the chance node's purpose (``dice_rolled``), as TI4's
PURPOSE = "gravity_rift"

#: the ``unit_removed`` reason of a unit lost (docs/protocol.md, as TI4's)
REASON = "lost leaving the gravity rift"

#: the ``unit_removed`` reason of a carried unit no leaving ship has room for (27Q-5)
LEFT_BEHIND = "beyond capacity leaving the gravity rift"

#: the Sol flagship, Genesis, carries any number of ground forces besides its capacity
#: (docs/rulings.md 27R-8; as procedures/fleet_check.py)
GENESIS = "sol_flagship"


def roll(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State] | None:
    """The next step of the fleet that left the rift: with ``gravity_rift_cargo: aboard`` and
    units to carry, what it leaves behind, then where each rides, then each group's dice;
    otherwise the next group of ships rolls. ``None`` when all have rolled."""
    if setup.anomaly != ANOMALY or state.withdrew is None:
        return None
    side = state.withdrew[0]
    cards = setup.side(side)
    if state.holds is None and state.rift_rolled == 0 and _stows(setup, cards, state.away):
        over = _beyond_capacity(cards, state.away)
        if over:
            return _leave_behind(state, side, over)
        holds = tuple(
            sorted(
                ((u, s, Forces()) for u, s, n in state.away if flies(cards, u) for _ in range(n)),
                key=hold_key,
            )
        )
        return Step(state.changed(holds=holds))
    if state.holds is not None:
        return _aboard(setup, state, side, state.holds)
    return _ships_alone(setup, state, side)


def _stows(setup: Ti3Setup, cards: Ti3Side, away: Forces) -> bool:
    """Whether the fleet's carried units ride named ships (option ``aboard``, units to
    carry)."""
    return setup.options.gravity_rift_cargo == "aboard" and any(
        not flies(cards, u) for u, _, _ in away
    )


def _genesis(cards: Ti3Side, away: Forces) -> bool:
    return cards.has(GENESIS) and bool(away.count("flagship"))


def _counted(cards: Ti3Side, unit: str, genesis: bool) -> bool:
    """Whether a carried ``unit`` takes room (not a ground force while Genesis goes along)."""
    return not (genesis and cards.is_ground_force(unit))


def _beyond_capacity(cards: Ti3Side, away: Forces) -> tuple[str, ...]:
    """The kinds of carried unit one of which must be left behind, or none (27Q-5): the
    carried units that take room beyond the leaving ships' capacity (the capacity check of
    procedures/fleet_check.py, on the ships that move)."""
    genesis = _genesis(cards, away)
    room = sum(n * (cards.card(u).capacity or 0) for u, _, n in away if flies(cards, u))
    carried = [u for u, _, n in away if not flies(cards, u) and _counted(cards, u, genesis)]
    taking = sum(n for u, _, n in away if u in carried)
    return tuple(dict.fromkeys(carried)) if taking > room else ()


def _leave_behind(state: Ti3State, side: Side, kinds: tuple[str, ...]) -> Node[Ti3State]:
    """The owner chooses a carried unit its ships have no room for: it is left behind, lost."""
    options = tuple(
        Option(f"remove {describe(u, s)}", "remove", u, s) for u, s, _ in state.away if u in kinds
    )
    request = DecisionRequest(
        decision="remove_excess",
        player=side.value,
        prompt=f"{LEFT_BEHIND}: remove a unit",
        options=options,
        facts={"reason": "capacity"},
    )

    def then(option: Option) -> Step[Ti3State]:
        unit = option.unit or ""
        away = state.away.remove(unit, Status(option.status or 0))
        removed = event("unit_removed", player=side.value, unit=unit, reason=LEFT_BEHIND)
        return Step(state.changed(away=away), (removed,))

    return Decision(request, then)


def _aboard(
    setup: Ti3Setup, state: Ti3State, side: Side, holds: tuple[Hold, ...]
) -> Node[Ti3State] | None:
    """Stow the next carried unit; once all ride a ship, the next group of alike ships
    rolls."""
    cards = setup.side(side)
    stowed = Forces()
    for _, _, load in holds:
        stowed = stowed.plus(load)
    for unit, status, count in state.away:
        if not flies(cards, unit) and count > stowed.count(unit, status):
            return _stow(setup, state, side, holds, unit, status)
    groups = sorted(Counter(holds).items(), key=lambda g: hold_key(g[0]))
    if state.rift_rolled >= len(groups):
        return None
    (ship, status, load), count = groups[state.rift_rolled]
    label = describe(ship, status) + (f" carrying {load}" if load else "")
    survives_on = setup.options.gravity_rift_destroyed_at_most + 1
    dice = DicePool.of([DiceGroup(label, count, survives_on)])

    def then(survivors: int) -> Step[Ti3State]:
        lost = count - survivors
        gone = Forces([(ship, status, lost)]) if lost else Forces()
        for _ in range(lost):
            gone = gone.plus(load)  # what a lost ship carries is lost with it (27Q-3)
        away = state.away
        for unit, unit_status, n in gone:
            away = away.remove(unit, unit_status, n)
        removed = tuple(
            event("unit_removed", player=side.value, unit=u, reason=REASON)
            for u, _, n in gone
            for _ in range(n)
        )
        return Step(state.changed(away=away, rift_rolled=state.rift_rolled + 1), removed)

    return Chance(side.value, PURPOSE, dice, then)


def _stow(
    setup: Ti3Setup,
    state: Ti3State,
    side: Side,
    holds: tuple[Hold, ...],
    unit: str,
    status: Status,
) -> Node[Ti3State]:
    """Which ship carries ``unit``: one option per kind of ship and load with room
    (``stow_cargo``, as TI4's). The leaving ships' room holds every unit that takes room, and
    Genesis every ground force (``_beyond_capacity`` ran first), so a ship has room."""
    cards = setup.side(side)
    genesis = _genesis(cards, state.away)
    counted = _counted(cards, unit, genesis)

    def has_room(ship: str, load: Forces) -> bool:
        if not counted:
            return ship == "flagship"
        used = load.total(lambda u: _counted(cards, u, genesis))
        return used < (cards.card(ship).capacity or 0)

    def stowed(changed: tuple[Hold, ...]) -> Step[Ti3State]:
        return Step(state.changed(holds=changed))

    return stow_cargo(side, holds, unit, status, has_room, stowed)


def _ships_alone(setup: Ti3Setup, state: Ti3State, side: Side) -> Node[Ti3State] | None:
    """The next group of ships (type and status) rolls, one die each; those at or below
    ``gravity_rift_destroyed_at_most`` are lost. ``None`` when none is left to roll."""
    cards = setup.side(side)
    groups = [(u, s, n) for u, s, n in state.away if flies(cards, u)]
    if state.rift_rolled >= len(groups):
        return None
    unit, status, count = groups[state.rift_rolled]
    survives_on = setup.options.gravity_rift_destroyed_at_most + 1
    dice = DicePool.of([DiceGroup(describe(unit, status), count, survives_on)])

    def then(survivors: int) -> Step[Ti3State]:
        lost = count - survivors
        away = state.away.remove(unit, status, lost) if lost else state.away
        removed = tuple(
            event("unit_removed", player=side.value, unit=unit, reason=REASON) for _ in range(lost)
        )
        # a group all lost is gone from ``away``: the next group takes its place in the order
        after = state.changed(away=away, rift_rolled=state.rift_rolled + bool(survivors))
        return Step(after, removed)

    return Chance(side.value, PURPOSE, dice, then)
