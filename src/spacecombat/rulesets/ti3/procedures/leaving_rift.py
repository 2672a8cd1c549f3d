"""Ships leaving a TI3 gravity rift (docs/rulings.md 27M-3; rulesets/ti3/gravity_rift.py).

PC_Twi (``GameEffects/CommonGameEffect.cpp``, ``e_GravityRift``): each ship with a move value
moving out of the rift rolls a die and is destroyed on 1-5 (``SAVE_ROLL = 5``; option
``gravity_rift_destroyed_at_most``, TI4's rule is 1-3). In a battle a fleet leaves the rift by
a withdrawal or retreat (its Execute Withdrawals step, Skilled Retreat, the Naalu's retreat,
Rule of Terror): all of them move the whole fleet out of the system at once
(``fleet_withdraws``, the fleet kept as ``away``) and end the battle. Its ships roll once it is
over, before its result is settled: nothing in the battle reaches them after they left, so
the outcomes are those of rolling as they leave. One roll per type and status of ship
(``Ti3State.rift_rolled`` counts those rolled that still have ships); a "hit" is a ship that
gets away. A ship lost is removed (``unit_removed``, "lost leaving the gravity rift", as
TI4's), not destroyed by a hit.
"""

from __future__ import annotations

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status, describe
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti3.gravity_rift import ANOMALY
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

#: the chance node's purpose (``dice_rolled``), as TI4's
PURPOSE = "gravity_rift"

#: the ``unit_removed`` reason of a ship lost (docs/protocol.md, as TI4's)
REASON = "lost leaving the gravity rift"


def _leaving(setup: Ti3Setup, state: Ti3State) -> list[tuple[str, Status, int]]:
    """The groups of ships that left the rift and roll, in the fleet's order."""
    if setup.anomaly != ANOMALY or state.withdrew is None:
        return []
    cards = setup.side(state.withdrew[0])
    return [(u, s, n) for u, s, n in state.away if cards.card(u).move is not None]


def roll(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State] | None:
    """The next group of ships that left the rift rolls, one die each; those at or below
    ``gravity_rift_destroyed_at_most`` are lost. ``None`` when none is left to roll."""
    groups = _leaving(setup, state)
    if state.rift_rolled >= len(groups):
        return None
    side = state.withdrew[0] if state.withdrew is not None else None
    assert side is not None
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
