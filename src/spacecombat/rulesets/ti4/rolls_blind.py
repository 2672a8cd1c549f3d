"""A combat roll's outcomes, remembered blind to the other player's part, for the exact engine's
split rolls (issue 24, 24AE-1; rulesets/ti4/split_rolls.py; docs/architecture.md, "The odds
engine", 1.).

The split rolls (``split_rolls.split_rolls``) play each outcome of the round's two combat rolls
by the real Roll Dice procedure (ti4-space-combat.md step 3, ti4-ground-combat.md step 1) at
every chance state they take: the attacker's roll at the chance state, the defender's at the
state the attacker's first outcome leads to. The chance states of a battle are many pairs of
the players' parts (no. 159 of the faction mix: 271 chance states split, 36 different
attacker's parts, 37 defender's), so each player's roll was played out again for every part of
the other player's it met.

What a combat roll reads of the other player's part, procedures/combat_round.py ``roll_dice``
says: the roll is made from the roller's units in the arena (``combat_pool``: one die per unit
by its combat value, then changed by the handlers that change a roll, ``combat_roll``, each
keyed by what it reads, ``roll_key``, which may be the other player's units: the roll's pool
says it all); a handler may keep the roll group by group (``keeps_rolls``) or aim its hits
(``aims_combat_hits``), each reading the state; every outcome then sets the hits against the
other player, the marks of the aimed ones on them, spends the roller's trade goods and destroys
the roller's units its own roll destroyed (``_spent_and_lost``, ``_units_lost``: queued for the
handlers that hear it, not heard yet), and moves the step on (the defender's roll, or the
"after roll dice" window, ``open_windows``: the setup and the round). So where no handler keeps
or aims the roll (``_blind``), each outcome's state is a function of the state without the
other player's units and purse, and of the roll's pool: it is played once for each such key
and remembered with the other player's part left out (``_without``), then put back for each
chance state (``_with``). A key's first state is played by the real procedure as before; an
outcome that changed the other player's part (none does) is not remembered.

What follows an outcome (its canonical form, the losses heard, the checks that the split may be
made) is done for each chance state as before, on the state put back. One of those checks, that
the defender's roll is the same whatever the attacker rolled, met the defender's roll node
again after each of the attacker's outcomes; where that roll is blind, its node is made from
its pool alone, so the pool is compared (``pool``; 24AE-5).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import cast

from spacecombat.core.engine import Chance
from spacecombat.core.pool import DicePool
from spacecombat.rulesets.ti4.effects import combat_pool
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState

#: whether a combat roll's outcomes are remembered blind to the other player's part across the
#: chance states the split rolls take (``outcomes``), and the defender's roll after each of the
#: attacker's outcomes told by its pool (``pool``); off: each outcome is played at every chance
#: state, each roll's node made, as before (tests/odds/test_graph_rolls_blind.py; 24AE-1, 24AE-5)
ROLLS_BLIND = True

#: an outcome of a roll: its chance, whether a combat round began on the way, the state it
#: leads to (the step's own, before its canonical form)
Outcome = tuple[Fraction | float, bool, BattleState]


def outcomes(
    setup: BattleSetup,
    node: Chance[BattleState],
    state: BattleState,
    exact: bool,
) -> Sequence[Outcome]:
    """Each outcome of ``node``, the combat roll of ``state``'s player to roll (``state.turn``),
    in the roll's order: its chance, whether a round began on the way, and the state the
    step leads to. Where the roll is blind to the other player's part (``_blind``), remembered
    in ``setup.memo`` by the state without it and the roll's pool, and put back."""
    roller = state.turn
    if not ROLLS_BLIND or not _blind(setup, state, roller):
        return _played(node, exact)
    other = roller.other
    key = ("rolls_blind", exact, state.without_part(other), node.pool)
    known = cast("list[Outcome] | None", setup.memo.get(key))
    if known is None:
        played = _played(node, exact)
        units, purse = state.side(other), state.wealth(other)
        if any(s.side(other) != units or s.wealth(other) != purse for _, _, s in played):
            return played  # (never: a roll changes its roller's part alone)
        setup.memo[key] = [(chance, begun, s.without_part(other)) for chance, begun, s in played]
        return played
    units, purse = state.side(other), state.wealth(other)
    return [(chance, begun, s.with_part(other, units, purse)) for chance, begun, s in known]


def pool(setup: BattleSetup, state: BattleState) -> DicePool | None:
    """The pool of the combat roll about to be made at ``state`` by its player to roll, where
    the roll is blind (``_blind``): ``roll_dice`` then makes its node from this pool alone
    (``combat_pool``; no keeper, no aimer), a roll of it if it has dice; ``None`` elsewhere, or
    with ``ROLLS_BLIND`` off (the node is then asked of the battle)."""
    roller = state.turn
    if not ROLLS_BLIND or not _blind(setup, state, roller):
        return None
    return combat_pool(setup, state, roller)


def _played(node: Chance[BattleState], exact: bool) -> list[Outcome]:
    """Each outcome of ``node`` played by the real procedure."""
    played: list[Outcome] = []
    for outcome, chance in node.outcomes(exact).items():
        step = node.after(outcome)
        begun = any(e.get("event") == "round_started" for e in step.events)
        played.append((chance, begun, step.state))
    return played


def _blind(setup: BattleSetup, state: BattleState, roller: Side) -> bool:
    """Whether ``roller``'s combat roll at ``state`` reads nothing of the other player's part
    but through its pool: nothing is queued or pending, and no handler keeps the roll group by
    group (``keeps_rolls``) or aims its hits (``aims_combat_hits``), whose answers read the
    state."""
    if state.following or state.pending is not None:
        return False
    keepers = setup.answering("keeps_rolls")
    if keepers and any(h.keeps_rolls(setup, state, roller) for h in keepers):
        return False
    aimers = setup.answering("aims_combat_hits")
    return not (aimers and any(h.aims_combat_hits(setup, state, roller) for h in aimers))
