"""Recheck (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-38): after a combat
roll, one die of it is re-rolled, the second result kept. Whose die is the option
``recheck_die``: ``any`` (default: "make a player reroll any one combat die", the earlier
source of 27S-11; "Force reroll of any 1 combat die (your or opponents)", the Clojure deck of
27S-34) or ``own`` (PC_Twi a_BeforeBattleRound.cpp: "reroll 1 your dice").

A combat roll is a roll of a combat round, of a space battle or an invasion combat. While a
player holds the card (and may play it: not after Communications Breakdown), those rolls are
made group by group (``Ti3State.checked`` keeps each group's hits, so that which dice hit is
known by unit type: the dice of a group are alike). Once the roll is made, each player holding
the card is asked in turn, the attacker first: a ``play_card`` decision (``card`` ``recheck``)
with one option per die it may choose, by unit type: one of its own missed dice (the roller), or
with ``any`` one of the opponent's dice that hit; ordered by what the re-roll is worth (a missed
die: its chance to hit; a hit: its chance to miss), then "pass". The stock holder takes the
first (27A-5). The die is re-rolled (its own ``dice_rolled`` event): a missed die adds a hit if
it hits; a hit is taken away and added back if the die hits again. Groups whose dice are not
plain (extra hits: the J.N.S. Hylarim's 10s) are not offered. With [0.0.1] or Experimental
Weaponry (``heavy``: the units whose hits go on non-fighter ships, 27S-9, 27S-26) their groups
are rolled first and their hits, the re-rolled die's included, counted apart as heavy hits
(27S-40). With Spec Ops Training (``spec_ops``: a Sol invasion combat roll, 27S-35) each group
is rolled counting its 1s, which are re-rolled at once, the group's hits both results' (27S-41);
the die Recheck re-rolls then is not re-rolled again on a 1. With the ``shock_troops`` option
(27T-18) the ground forces' group counts its natural 10s too (``Ti3State.tens``; with Spec Ops
Training its 1s re-rolled inside its roll, 27T-11), and a hit of it the opponent has re-rolled
is a natural 10 or not (two choices; a 10 re-rolled is a promotion taken away, and a 10 the
re-roll gives is one more)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.pool import DicePool
from spacecombat.core.sides import SIDES, Side
from spacecombat.rulesets.ti3.abilities import l1z1x_flagship, spec_ops_training
from spacecombat.rulesets.ti3.cards.common import card_played, offer_choices
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "recheck"

#: the rolls whose dice it may re-roll (the ``purpose`` of their exchange)
COMBAT_ROLLS = ("space_combat", "invasion_combat")


def applies(state: Ti3State, purpose: str) -> bool:
    """Whether this roll is made group by group: a combat roll while a player may play it."""
    if purpose not in COMBAT_ROLLS:
        return False
    underway = bool(state.checked) or state.rerolling >= 0
    return underway or any(CARD in state.playable(s) for s in SIDES)


def roll(
    setup: Ti3Setup,
    state: Ti3State,
    roller: Side,
    dice: DicePool,
    purpose: str,
    finish: Callable[[Ti3State], Ti3State],
    heavy: tuple[str, ...] = (),
    spec_ops: bool = False,
) -> Node[Ti3State]:
    """The next group of ``roller``'s roll; once all are rolled, the players holding the card
    are asked; then ``finish`` (the roll's usual next state). ``heavy``: the units whose hits
    are counted apart as heavy hits (their groups first in ``dice``: 27S-40); ``spec_ops``: each
    group's 1s are re-rolled after it (Spec Ops Training, ``state.spec_ops[1]`` the 1s still
    to re-roll: 27S-41)."""
    done = state.checked
    target = roller.other
    if not done and state.rerolling < 0 and state.heavy != (0, 0):
        # a new roll: the heavy hits of an earlier one are over (as exchange.py's plain roll)
        state = l1z1x_flagship.with_heavy_on(state, target, 0)

    def counted(after: Ti3State, group: int, hits: int) -> Ti3State:
        """``hits`` of ``dice.groups[group]`` added (or taken away) to the heavy hits too when
        its unit is heavy."""
        if dice.groups[group].unit not in heavy:
            return after
        index = 0 if target is Side.ATTACKER else 1
        return l1z1x_flagship.with_heavy_on(after, target, after.heavy[index] + hits)

    if state.rerolling >= 0:
        g = state.rerolling
        die = DicePool((replace(dice.groups[g], dice=1),))

        def again(hits: int, tens: int = 0) -> Step[Ti3State]:
            checked = list(done)
            checked[g] += hits
            after = counted(state.with_hits_on(target, state.hits_on(target) + hits), g, hits)
            after = _with_tens(after, roller, tens)
            return Step(after.changed(checked=tuple(checked), rerolling=-1))

        # a die whose natural 10 is counted (Shock Troops: 27T-18)
        tens = again if dice.groups[g].mark_on is not None else None
        return Chance(roller.value, purpose, die, again, tens)
    if state.spec_ops[1]:
        # Spec Ops Training: the 1s of the last group rolled, re-rolled once (27S-35)
        last = len(done) - 1
        ones = DicePool((replace(dice.groups[last], dice=state.spec_ops[1]),))

        def second(hits: int) -> Step[Ti3State]:
            checked = list(done)
            checked[last] += hits
            after = state.with_hits_on(target, state.hits_on(target) + hits)
            return Step(after.changed(checked=tuple(checked), spec_ops=(0, 0)))

        return Chance(roller.value, purpose, ones, second)
    if len(done) < len(dice.groups):
        index = len(done)
        group = dice.groups[index]
        if group.mark_on is not None:
            # the ground forces' natural 10s counted (Shock Troops), with Spec Ops Training
            # their 1s re-rolled inside the roll (27T-11, 27T-18)
            return _marked_group(state, roller, dice, index, purpose, spec_ops, counted)

        def rolled(hits: int, marks: int | None = None) -> Step[Ti3State]:
            # ``marks``: with Spec Ops Training, its faces of 2 or more (the rest are 1s)
            after = counted(state.with_hits_on(target, state.hits_on(target) + hits), index, hits)
            ones = 0 if marks is None else group.dice - marks
            return Step(after.changed(checked=(*done, hits), spec_ops=(0, ones)))

        if spec_ops and group.hit_on > 1:  # (a 1 that hits: nothing to re-roll)
            marked = DicePool((replace(group, mark_on=2),))
            return Chance(roller.value, purpose, marked, rolled, rolled)
        return Chance(roller.value, purpose, DicePool((group,)), rolled)
    for index in range(state.recheck_asked, len(SIDES)):
        holder = SIDES[index]
        choices = _choices(setup, state, roller, holder, dice)
        if CARD in state.playable(holder) and choices:
            asked = state.changed(recheck_asked=index + 1)
            return _ask(state, asked, roller, holder, dice, choices, purpose, heavy)
    return Step(finish(state.changed(checked=(), recheck_asked=0)))


def _with_tens(state: Ti3State, side: Side, more: int) -> Ti3State:
    """``side``'s natural 10s of this roll (Shock Troops) changed by ``more``."""
    if not more:
        return state
    a, d = state.tens
    return state.changed(tens=(a + more, d) if side is Side.ATTACKER else (a, d + more))


def _marked_group(
    state: Ti3State,
    roller: Side,
    dice: DicePool,
    index: int,
    purpose: str,
    spec_ops: bool,
    counted: Callable[[Ti3State, int, int], Ti3State],
) -> Node[Ti3State]:
    """The group of ``dice`` whose natural 10s are counted (the ground forces with Shock
    Troops), rolled as one roll (hits, natural 10s): its 10s added to the roller's; with Spec
    Ops Training its 1s re-rolled inside the roll (27T-11, 27T-18)."""
    group = dice.groups[index]
    target = roller.other
    rolled_group = DicePool((group,))
    if spec_ops:
        rolled_group = spec_ops_training.with_ones_rerolled(rolled_group)

    def rolled(hits: int, tens: int = 0) -> Step[Ti3State]:
        after = counted(state.with_hits_on(target, state.hits_on(target) + hits), index, hits)
        after = _with_tens(after, roller, tens)
        return Step(after.changed(checked=(*state.checked, hits), spec_ops=(0, 0)))

    return Chance(roller.value, purpose, rolled_group, rolled, rolled)


#: a die ``holder`` may have re-rolled: (worth, the die hit, its group, it was a natural 10)
Choice = tuple[Fraction, bool, int, bool]


def _choices(
    setup: Ti3Setup, state: Ti3State, roller: Side, holder: Side, dice: DicePool
) -> list[Choice]:
    """Each die ``holder`` may have re-rolled, best first. A group whose natural 10s are
    counted (Shock Troops: 27T-18) is offered when its 10s all hit: its hits are a 10 (the
    first choice of the two: the re-roll may take a promotion away) or not."""
    found: list[Choice] = []
    for index, (group, hits) in enumerate(zip(dice.groups, state.checked, strict=True)):
        if not group.plain or group.aimed:
            continue
        if group.mark_on is not None and group.mark_on < group.hit_on:
            continue  # (a natural 10 that misses: which miss to re-roll would be a choice)
        chance = group.hit_chance
        if holder is roller and hits < group.dice and chance > 0:
            found.append((chance, False, index, False))
        if holder is not roller and setup.options.recheck_die == "any" and hits and chance < 1:
            if group.mark_on is None:
                found.append((1 - chance, True, index, False))
                continue
            # the roller's 10s are this group's (its only group that counts them)
            tens = state.tens_of(roller)
            if tens:
                found.append((1 - chance, True, index, True))
            if hits > tens:
                found.append((1 - chance, True, index, False))
    return sorted(found, key=lambda c: (-c[0], c[2], not c[3]))


def _ask(
    state: Ti3State,
    asked: Ti3State,
    roller: Side,
    holder: Side,
    dice: DicePool,
    choices: list[Choice],
    purpose: str,
    heavy: tuple[str, ...],
) -> Node[Ti3State]:
    target = roller.other

    def play(chosen: int) -> Step[Ti3State]:
        _, hit, g, ten = choices[chosen]
        spent = asked.played(holder, CARD)
        if ten:  # a natural 10 re-rolled: not a 10 any more unless it rolls one again
            spent = _with_tens(spent, roller, -1)
        if hit:  # the hit is taken away until the die is rolled again
            spent = spent.with_hits_on(target, spent.hits_on(target) - 1)
            if dice.groups[g].unit in heavy:
                index = 0 if target is Side.ATTACKER else 1
                spent = l1z1x_flagship.with_heavy_on(spent, target, spent.heavy[index] - 1)
        checked = list(spent.checked)
        checked[g] -= int(hit)
        base = spent.changed(checked=tuple(checked), rerolling=g)
        return Step(base, (card_played(holder, CARD, state.round),))

    return offer_choices(
        holder,
        CARD,
        state,
        "play Recheck: re-roll one die of this combat roll?",
        [
            f"play {CARD}: re-roll a {'hit' if hit else 'missed die'}"
            f"{' (a natural 10)' if ten else ''} of {roller.value}'s {dice.groups[g].unit}"
            for _, hit, g, ten in choices
        ],
        play,
        asked,
    )
