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

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.hooks import Follow
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.core.decisions import Policy
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: whether the exact engine follows a roll kept group by group blind to the hits against its
#: roller (off: every group's roll a chance state for each number of those hits, as before;
#: tests/odds/test_graph_kept_roll_blind.py)
KEPT_ROLL_BLIND = True

#: whether a handler's own roll while a player assigns hits (Courageous to the End's) is
#: followed blind to the hits against the other player, with the stretches taken at once after
#: it (off: as before; tests/odds/test_graph_kept_roll_blind.py; 24AD-3)
ROLL_IN_ASSIGNMENT = True

#: whether the stretch after a roll while the attacker assigns hits also takes the step that
#: ends the attacker's assignment, none being left against it (``_handed_over``: the
#: defender's turn, reading nothing of the hits against the defender); off: that step walked
#: from each state the roll leads to with those hits put back, as before
#: (tests/odds/test_graph_kept_roll_handed_over.py; docs/architecture.md 24AH-1)
HANDED_OVER = True

#: the players the end of whose assignment reads nothing of the hits against the other player
#: (``_handed_over``): the attacker, who assigns first; the defender's end reads the hits
#: against the attacker (``assign_hits._handing_back``, 27U-1)
_ENDS_BLIND = frozenset({Side.ATTACKER})

#: which roll a state's roll is: a combat roll kept group by group, a roll while assigning
KEPT = "kept"
ASSIGNING = "assigning"

#: the most stretches taken at once after a roll while assigning (each is a leap of the
#: battle's; the walk goes on step by step from where they stop)
_STRETCHES = 16


def roll_blind(
    setup: BattleSetup, state: BattleState
) -> tuple[BattleState, tuple[Side, int, bool], tuple[object, ...]] | None:
    """For the chance state ``state``, the state with what its roll leaves unread left out,
    what was left out (a player, the hits against it, and whether the walk may add to them)
    and which roll it is; ``None`` elsewhere:

    - a group of a combat roll kept group by group (Roll Dice, the roller's turn, nothing
      queued or pending, a handler keeping the roller's roll): the hits against the roller,
      which the step may not change (the roll and the step's own steps read and set the hits
      against the other player only);
    - a handler's own roll while a player assigns hits (Assign Hits, that player's turn, the
      handler's follow-up heading the queue, nothing pending), where the handler reads nothing
      of the other player's part nor the hits against it while that player assigns
      (``Handler.blind_while_assigning``: Courageous to the End's 2 dice, rolled by its holder
      when its ship is destroyed): the hits against the other player, to which the stretches
      taken at once after the roll only add (``roll_stretch``; 24AD-3)."""
    if not KEPT_ROLL_BLIND or state.pending is not None:
        return None
    if state.phase is Phase.ASSIGN_HITS:
        return _assigner_roll_blind(setup, state) if ROLL_IN_ASSIGNMENT else None
    if state.phase is not Phase.ROLL_DICE or state.following:
        return None  # losses to hear: not the roll's own steps
    roller = state.turn
    keepers = setup.answering("keeps_rolls")
    if not keepers or not any(h.keeps_rolls(setup, state, roller) for h in keepers):
        return None
    hits = state.hits_on(roller)
    blinded = state.with_hits_on(roller, 0) if hits else state
    return blinded, (roller, hits, False), (KEPT, roller, state.round)


def _assigner_roll_blind(
    setup: BattleSetup, state: BattleState
) -> tuple[BattleState, tuple[Side, int, bool], tuple[object, ...]] | None:
    """``roll_blind`` for a handler's own roll while ``state.turn`` assigns hits."""
    if not state.following:
        return None
    head = state.following[0]
    side = state.turn
    if head.kind is not Follow.OWN or head.owner is not side:
        return None
    for handler in setup.handlers:
        if handler.id == head.handler and handler.owner is side:
            if not handler.blind_while_assigning(setup, state, side):
                return None
            break
    else:
        return None
    other = side.other
    hits = state.hits_on(other)
    blinded = state.with_hits_on(other, 0) if hits else state
    return blinded, (other, hits, True), (ASSIGNING, side, state.round)


class Stepping(Protocol):
    """A battle that may take a stretch at once (``Leaping``) and tells the node after a
    state (``Ti4Battle``)."""

    def leap(self, state: BattleState, policies: Mapping[str, Policy]) -> BattleState | None: ...

    def advance(self, state: BattleState) -> Node[BattleState]: ...


def roll_stretch(
    battle: Stepping,
    canonical: Callable[[BattleState], BattleState],
    state: BattleState,
    roll: tuple[object, ...],
    policies: Mapping[str, Policy],
) -> BattleState:
    """The state reached from ``state`` (a state the roll ``roll`` led to, followed blind) by
    the stretches of the assigning player's step the battle takes at once (``Ti4Battle.leap``:
    the ships the other player must destroy, the rest of the assignment), while it is that
    player's Assign Hits step: none reads the hits against the other player (each leap is
    remembered without them, or from the state with them 0, and puts them back, adding what
    the walk produced: ``_destroyed_at_once``, ``_blind_leap``, ``_placing_leap``, and the
    assignment keyed by the assigning player's units and hits alone), so the stretch from the
    state with them left out is the stretch from the state as it was, those hits put back.
    ``state`` itself for a kept combat roll (its states are walked as they were)."""
    if roll[0] is not ASSIGNING or not ROLL_IN_ASSIGNMENT:
        return state
    side = roll[1]
    for _ in range(_STRETCHES):
        if state.phase is not Phase.ASSIGN_HITS or state.turn is not side:
            break
        landed = battle.leap(state, policies)
        if landed is None:
            break
        state = canonical(landed)
    if HANDED_OVER and isinstance(side, Side):
        state = _handed_over(battle, canonical, state, side)
    return state


def _handed_over(
    battle: Stepping,
    canonical: Callable[[BattleState], BattleState],
    state: BattleState,
    side: Side,
) -> BattleState:
    """``state`` past the step that ends the attacker's assignment where no hit is left
    against it, nothing queued or pending (ti4-space-combat.md step 4: the defender assigns
    next; procedures/combat_round.py ``assign_combat_hits``' ``done``), else ``state`` itself.
    That step reads the attacker's part alone: with no hit against it, the assignment is done
    at once (``assign_hits``: no handler asked before the first hit, none queued), the hits
    that must go to non-fighter ships are forgotten (its own), the cursor and its SUSTAIN
    DAMAGE cleared, and the turn handed to the defender; only the defender's own end reads
    the hits against the other player (``_handing_back``: the attacker's, produced while the
    defender assigned, 27U-1). So it is the same step from the state with the hits against
    the defender left out as from the state with them put back (24AH-1). Taken only where it
    is a plain step to the defender's turn, nothing told."""
    if (
        side not in _ENDS_BLIND
        or state.phase is not Phase.ASSIGN_HITS
        or state.turn is not side
        or state.hits_on(side)
        or state.following
        or state.pending is not None
    ):
        return state
    node = battle.advance(state)
    if not isinstance(node, Step) or node.events:
        return state
    after = node.state
    if after.phase is not Phase.ASSIGN_HITS or after.turn is not side.other:
        return state
    return canonical(after)


def roll_put_back(state: BattleState, left_out: tuple[Side, int, bool]) -> BattleState | None:
    """``state``, reached blind, with the hits left out put back: added to those the walk
    produced where it may add to them, else set (``None`` where the walk set some: it read or
    changed what was left out, and the roll is followed as before)."""
    side, hits, added = left_out
    if not hits:
        return state  # nothing was left out: the walk was the walk from the state itself
    if added:
        return state.with_hits_on(side, state.hits_on(side) + hits)
    if state.hits_on(side):
        return None
    return state.with_hits_on(side, hits)
