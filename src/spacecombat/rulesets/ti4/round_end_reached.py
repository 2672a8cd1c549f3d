"""The state both assignments lead to, put together at the round's end (issue 24, 24AC-6;
docs/architecture.md, "The odds engine", 1.).

Once a round's rolls are taken player by player (rulesets/ti4/split_rolls.py), the explorer
walks on from each pair of players' parts after their assignments, from the defender's Assign
Hits step with no hit left. Three steps follow that read nothing of the players' parts where
no hit is left, nothing is queued or pending, no retreat is announced and no handler acts after
hits are assigned but those whose ``after_assign_hits`` is only a marker
(procedures/marker_hooks.py, 24AC-1): the defender's step moves on (procedures/assign_hits.py:
no hit left, its record cleared; ti4-space-combat.md step 4), the window after hits are
assigned passes (procedures/combat_round.py ``after_assign_hits``), and Retreat, nothing
announced, moves on to the round's end (procedures/retreat.py ``_begin``; step 5). In no. 256
of the faction mix they were 3,873 of the walks' 8,700 steps. They are now walked once for
each chance state, from the pair of parts its tables meet first, and every pair is put
together at the state they reach (``reached``): the round's end, the same state the walk from
the pair passes. Checked as it is walked: each step a plain step beginning no round, the
players' parts and purses as they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from spacecombat.core.decisions import Policy, decide
from spacecombat.core.engine import Decision, Step
from spacecombat.rulesets.ti4.procedures.marker_hooks import marker_only
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.battle import Ti4Battle

#: whether the pairs of parts after are put together at the round's end (``reached``); off: at
#: the defender's Assign Hits step, the old way (24AC-6; tests/odds/test_graph_round_end.py)
REACHED = True

#: the steps walked: the defender's Assign Hits with no hit left, the window after hits are
#: assigned, Retreat with nothing announced
_PASSED = frozenset({Phase.ASSIGN_HITS, Phase.AFTER_ASSIGN_HITS, Phase.RETREAT})

#: the most steps walked (three in a space combat, two in a ground combat)
_MOST = 4


def walked_to_round_end(
    battle: Ti4Battle,
    some: BattleState,
    most: int,
    policies: Mapping[str, Policy] | None = None,
) -> BattleState | None:
    """The state the real procedure reaches from ``some`` at the round's end, through the
    steps of ``_PASSED`` alone, in at most ``most`` steps, each put in canonical form; its
    decisions taken by ``policies`` (none given: a decision ends the walk). ``None`` if it meets
    anything else (a chance, another phase, a round beginning) or does not get there (used
    here and by round_end_parts.py)."""
    at = some
    for _ in range(most):
        if at.phase is Phase.END_OF_ROUND:
            return at
        if at.phase not in _PASSED:
            return None
        node = battle.advance(at)
        if policies is not None and isinstance(node, Decision):
            node = node.then(decide(node.request, policies))
        if not isinstance(node, Step) or any(
            e.get("event") == "round_started" for e in node.events
        ):
            return None
        at = battle.canonical(node.state)
    return None


def reached(battle: Ti4Battle, setup: BattleSetup, some: BattleState) -> BattleState | None:
    """The state the steps from ``some`` (a pair of parts after put together at the
    defender's Assign Hits step, no hit left) reach at the round's end, where they read nothing
    of the players' parts (the module's docstring); ``None`` elsewhere."""
    if (
        not REACHED
        or some.phase is not Phase.ASSIGN_HITS
        or some.turn is not Side.DEFENDER
        or some.hits != (0, 0)
        or some.following
        or some.pending is not None
        or some.retreat is not None
        or some.announced != (False, False)
        or not all(marker_only(h) for h in setup.answering("after_assign_hits"))
    ):
        return None
    at = walked_to_round_end(battle, some, _MOST)
    if at is None:
        return None
    if (
        at.phase is not Phase.END_OF_ROUND
        or at.attacker is not some.attacker
        or at.defender is not some.defender
        or at.purse != some.purse
        or at.hits != (0, 0)
    ):
        return None
    return at
