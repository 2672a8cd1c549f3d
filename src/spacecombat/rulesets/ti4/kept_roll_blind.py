"""For the exact engine: a combat roll kept group by group, followed blind to the hits against
its roller (docs/architecture.md 24AD-1; analysis/graph.py ``RollingBlind``).

While a handler keeps a player's combat roll group by group (``Handler.keeps_rolls``: War Funding
Ω, whose holder's misses are rolled again after both players rolled; ti4-space-combat.md step 3),
the Roll Dice step makes one chance node a group (procedures/combat_round.py ``_roll_by_group``).
The defender's roll follows the attacker's, so every group's roll after the first was a chance
state of the graph for each number of hits the attacker rolled, though nothing of the step reads
them: the pool is the roller's units and the effects on its roll (``combat_pool``; the roll
changers' ``roll_key`` reads the roller's own part, none the hits), each group's hits are kept
and set against the *other* player (``tallied``, ``aiming`` on the other player), the units its
own rerolls destroy are the roller's (``_units_lost``), and the step then opens the "after roll
dice" window or gives the defender its turn (``open_windows``, ``Phase.at``), reading nothing.

So the explorer may follow the roll's groups once from the state with those hits left out, to
the state each outcome leaves once the step is past its last group (or has losses to hear, or
anything else but the next group's roll), and put the hits back there (``roll_put_back``,
refused where the walk changed them). What happens from that state on (the handlers hearing
losses, the window, War Funding Ω's offer, which reads both rolls) is walked as before with
the hits there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: whether the exact engine follows a roll kept group by group blind to the hits against its
#: roller (off: every group's roll a chance state for each number of those hits, as before;
#: tests/odds/test_graph_kept_roll_blind.py)
KEPT_ROLL_BLIND = True


def roll_blind(
    setup: BattleSetup, state: BattleState
) -> tuple[BattleState, tuple[Side, int], tuple[Side, int]] | None:
    """For the chance state ``state``: where it is a group of a combat roll kept group by group
    (Roll Dice, the roller's turn, nothing queued or pending, a handler keeping the roller's
    roll), the state with the hits against the roller left out (0), what was left out (the
    roller and those hits) and which roll it is (the roller, the round): the explorer follows
    the roll's groups on from it while they are that roll. ``None`` elsewhere."""
    if not KEPT_ROLL_BLIND or state.phase is not Phase.ROLL_DICE:
        return None
    if state.following or state.pending is not None:
        return None  # losses to hear, or a card pending: not the roll's own steps
    roller = state.turn
    keepers = setup.answering("keeps_rolls")
    if not keepers or not any(h.keeps_rolls(setup, state, roller) for h in keepers):
        return None
    hits = state.hits_on(roller)
    blinded = state.with_hits_on(roller, 0) if hits else state
    return blinded, (roller, hits), (roller, state.round)


def roll_put_back(state: BattleState, left_out: tuple[Side, int]) -> BattleState | None:
    """``state``, reached blind from a roll kept group by group, with the hits against the
    roller put back; ``None`` where the walk set some (then it read or changed what was left
    out: not taken)."""
    roller, hits = left_out
    if not hits:
        return state  # nothing was left out: the walk was the walk from the state itself
    if state.hits_on(roller):
        return None
    return state.with_hits_on(roller, hits)
