"""A combat roll's outcomes, walked once for every chance state alike but for the other
player's part (issue 24, 24AC-2; docs/architecture.md, "The odds engine", 1.).

The split rolls (rulesets/ti4/split_rolls.py ``split_rolls``) take each player's combat roll
(ti4-space-combat.md step 3, ti4-ground-combat.md step 1) outcome by outcome from the chance
state: the Roll Dice step's outcome (procedures/combat_round.py ``roll_dice``: the hits set
against the other player, marked where some must go to non-fighter ships, ``aiming``; the
roller's units lost to its own rerolls and its trade goods spent, ``_spent_and_lost``; the step
moved on), then the roller's own losses heard (``_losses_heard``, 24U-2). In a battle where a
round is reached from many pairs of fleets (no. 256 of the faction mix: 382 chance states, 9
attacker's parts, 67 defender's), each player's roll was walked again at each of them, though
it is the same walk wherever that player's part is the same.

What the step reads, outcome by outcome, is the pool (a value of the roller's units and the
roll changers' ``roll_key``s, made by ``advance`` at the chance state itself, and part of the
key here), the outcome, the roller's part and the fields of the state that are neither
player's part; it changes the roller's part, the hits against the other and the marks on them.
The hearing reads the other player's part only in asking whether each hearer is idle for the
roller (``Handler.idle_while_assigning``), which is asked again at every chance state, for
every part of the other player's the split may meet (``idle``); idle hearers answer ``None``
whatever the units, so the walk is the same. So the walk from one chance state, with the other
player's part put back, is the walk from every state alike but for that part
(``_without_part``): it is remembered by that key, with the roll's pool, and the states it
reached are given each chance state's part of the other player back. Not where the canonical
form of a state reads more than the state's own fields but the parts (a handler keeping rolls
group by group, replacing hits or keying its follow-ups as they play out: War Funding Ω), where
nothing is remembered (``_remembers``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TYPE_CHECKING, cast

from spacecombat.core.engine import Chance
from spacecombat.core.forces import Forces
from spacecombat.core.sides import SideState
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.battle import Ti4Battle

#: whether a roll's outcomes, its own losses heard, are remembered across the chance states
#: alike but for the other player's part (``heard``); off: walked afresh at each chance state,
#: the old way (24AC-2; tests/odds/test_graph_rolls_heard.py)
REMEMBERED = True

#: the other player's part in the key: no units, nothing to spend
_NOBODY = SideState(Forces(), ())

#: the handlers' hooks whose answers the canonical form of a state in a timing window reads
#: (``Ti4Battle.canonical``: ``queued_alike``, ``replaced_hits``, ``dead_rolls``), which may
#: read a player's purse: where one is in play, nothing is remembered
_CANONICAL_READERS = ("keeps_rolls", "queued_alike", "replaces_hits")

#: one outcome walked: its chance, the state once its own losses are heard, whether a round
#: began on the way
Walked = tuple[Fraction | float, BattleState, bool]
#: one outcome remembered: its chance, the state before its losses are heard where some are
#: queued (else ``None``) and the state once heard, both without the other player's part, and
#: whether a round began on the way
Kept = tuple[Fraction | float, BattleState | None, BattleState, bool]


def _without_part(state: BattleState, other: Side) -> BattleState:
    """``state`` without ``other``'s part: its units and its purse (not the hits against it)."""
    a, d = state.purse
    purse = ((0, 0), d) if other is Side.ATTACKER else (a, (0, 0))
    return state.with_side(other, _NOBODY).changed(purse=purse)


def _with_part(walked: BattleState, other: Side, state: BattleState) -> BattleState:
    """``walked`` with ``other``'s part as it is in ``state``."""
    a, d = walked.purse
    kept = state.wealth(other)
    purse = (kept, d) if other is Side.ATTACKER else (a, kept)
    return walked.with_side(other, state.side(other)).changed(purse=purse)


def _remembers(setup: BattleSetup) -> bool:
    """Whether no handler in play makes the canonical form read more than the state's fields
    but the players' parts (``_CANONICAL_READERS``)."""
    return REMEMBERED and not any(setup.answering(hook) for hook in _CANONICAL_READERS)


def heard(
    battle: Ti4Battle,
    setup: BattleSetup,
    state: BattleState,
    node: Chance[BattleState],
    exact: bool,
    hear: Callable[[BattleState], BattleState | None],
    idle: Callable[[BattleState], bool],
) -> list[Walked] | None:
    """Each outcome of ``node`` (the combat roll made at ``state``) with its chance, the state
    it leads to once the roller's own losses are heard (``hear``: split_rolls.py
    ``_losses_heard``) and whether a round began on the way; ``None`` where one is refused
    (``hear`` answers ``None``) or begins a round. Remembered by the state without the other
    player's part and the roll's pool; a remembered walk is taken only where each queue of
    losses is heard by hearers idle for the roller at this chance state too (``idle``: the
    check ``hear`` makes before it walks)."""
    roller = state.turn
    other = roller.other
    key: Hashable = None
    if _remembers(setup):
        key = (
            "rolls heard (24AC-2)",
            exact,
            node.roller,
            node.purpose,
            node.pool,
            node.then_marked is None,
            node.then_tally is None,
            _without_part(state, other),
        )
        known = cast("list[Kept] | None", setup.memo.get(key))
        if known is not None:
            found: list[Walked] = []
            for chance, queued, landed, begun in known:
                if queued is not None and not idle(queued):
                    return None
                found.append((chance, _with_part(landed, other, state), begun))
            return found
    walked: list[Walked] = []
    kept: list[Kept] = []
    for outcome, chance in node.outcomes(exact).items():
        step = node.after(outcome)
        rolled = battle.canonical(step.state)
        after = hear(rolled)
        begun = any(e.get("event") == "round_started" for e in step.events)
        if after is None or begun:
            return None
        walked.append((chance, after, begun))
        if key is None:
            continue
        if after.side(other) != state.side(other) or after.wealth(other) != state.wealth(other):
            key = None  # (the split refuses it: nothing remembered)
            continue
        queued = _without_part(rolled, other) if rolled.following else None
        kept.append((chance, queued, _without_part(after, other), begun))
    if key is not None:
        setup.memo[key] = kept
    return walked
