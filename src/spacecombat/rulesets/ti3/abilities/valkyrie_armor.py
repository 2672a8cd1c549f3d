"""Valkyrie Armor (Sardakk N'orr racial technology, Shattered Empire; data/technologies.toml;
docs/rulings.md 27S-10): "At the end of a round of Invasion Combat, roll one die for each
casualty you take. For each 10 you roll, your opponent must immediately take one casualty"
(PC_Twi GameEffects/races/r_Norr.cpp e_NorrValkyrieArmor, its text and code: the hits its
ground units lost in the round, one die each, a 10 a casualty).

The casualties are counted as the round's hits are taken (``Ti3State.taken``: each hit a
ground unit took, destroyed or sustained, as PC_Twi counts hit points); at the end of the
round, before Shock Troop promotions, the holder rolls (the attacker first if both hold it);
the dice are not combat rolls (no modifier reaches them); the opponent removes the casualties
at once, as in the round."""

from __future__ import annotations

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.races import ValkyrieArmor
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

#: the face each die needs
FACE = 10


def taken_by(state: Ti3State, side: Side) -> int:
    return state.taken[0 if side is Side.ATTACKER else 1]


def count(before: Ti3State, after: Ti3State, side: Side) -> Ti3State:
    """The hits ``side`` just took in an invasion combat round, counted."""
    if before.phase is not Phase.INVASION_CASUALTIES:
        return after
    took = before.hits_on(side) - after.hits_on(side)
    if not took:
        return after
    a, d = after.taken
    return after.changed(taken=(a + took, d) if side is Side.ATTACKER else (a, d + took))


def rolls(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """Whether ``side`` rolls for Valkyrie Armor at this round's end."""
    return setup.side(side).has(ValkyrieArmor.id) and taken_by(state, side) > 0


def roll(state: Ti3State, side: Side, then_hits: Phase, after: str) -> Node[Ti3State]:
    """``side`` rolls a die per casualty it took; each 10 is a hit on the opponent, taken in
    ``then_hits``; ``after`` is the end-of-round step that follows."""
    dice = DicePool.of([DiceGroup("ground_force", taken_by(state, side), FACE)])

    def then(hits: int) -> Step[Ti3State]:
        done = state.changed(step=after)
        if not hits:
            return Step(done)
        return Step(done.with_hits_on(side.other, hits).at(then_hits, turn=side.other))

    return Chance(side.value, "valkyrie_armor", dice, then)
