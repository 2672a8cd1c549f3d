"""A player's whole assignment of hits, remembered for the states it passes (issue 24, 24AC-4;
docs/architecture.md, "The odds engine", 1.).

``Ti4Battle.leap`` walks a player's Assign Hits step (ti4-space-combat.md step 4,
ti4-ground-combat.md step 2) by the real procedure, one ``assign_hit`` decision a hit, once for
each key (player, arena, gains, units there, hits, free hits, what the handlers asked declare
they read: ``assign_hits.leap_key``), and remembers the units it leaves: the walk is a function
of that key. Each state the walk passes with hits still to assign is such a state too (the same
step, the same player, fewer hits), so where its own key can be made (nothing queued for the
handlers to hear, no card pending: ``Ti4Battle.leap``'s own conditions) the rest of the walk is
the walk from it, and ends where this one ends. The walk now stops at the first state passed
whose key was walked before, and remembers every key passed with where it ends (no. 256 of the
faction mix: the defender's assignments of 1 to 4 hits from 67 fleets, many meeting after a
hit or two).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import TYPE_CHECKING

from spacecombat.core.decisions import Policy, decide
from spacecombat.core.engine import Decision, Step
from spacecombat.core.forces import Forces
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.battle import Ti4Battle

#: whether a whole assignment stops at a state it passes whose key was walked before, and
#: remembers the keys it passes (``walked``); off: each key walked to its end and only it
#: remembered, the old way (24AC-4; tests/odds/test_graph_leaps_passed.py)
PASSED = True

#: the units a walk leaves in the arena and the hits left
Left = tuple[Forces, int]


def walked(
    battle: Ti4Battle,
    state: BattleState,
    side: Side,
    policies: Mapping[str, Policy],
    known: dict[Hashable, Left],
    key_of: Callable[[BattleState], Hashable | None],
    where: int | None,
) -> Left | None:
    """``side``'s Assign Hits step walked from ``state`` until its last hit is assigned (or
    lost), as ``Ti4Battle._assigned`` walks it: the units it leaves in ``where`` and the hits
    left, or ``None`` if it meets anything but steps and decisions. Stops at a state passed
    whose key (``key_of``: ``None`` where none is made) is in ``known``; every key passed is
    remembered there with the end."""
    passed: list[Hashable] = []
    current = state
    left: Left | None = None
    while current.phase is Phase.ASSIGN_HITS and current.turn is side and current.hits_on(side) > 0:
        if current is not state:
            key = key_of(current)
            if key is not None:
                left = known.get(key)
                if left is not None:
                    break
                passed.append(key)
        node = battle.advance(current)
        if isinstance(node, Step):
            current = node.state
        elif isinstance(node, Decision):
            current = node.then(decide(node.request, policies)).state
        else:
            return None
    if left is None:
        left = (current.side(side).area(where), current.hits_on(side))
    for key in passed:
        known[key] = left
    return left
