"""Faulty Targeting Systems (TI3 Shattered Empire action card; data/action_cards.toml;
docs/rulings.md 27S-39): "Prevents the action card Minelayers, or removes one minefield from a
system or force opponent to reroll one PDS roll" (a Clojure TI3 action deck, code index id
27645784455; 27S-37). Three uses, one card:

- **Minelayers prevented**: once the defender played Minelayers (cards/minelayers.py), the
  attacker holding this card is asked (a ``play_card`` decision): played, the cruisers' hits
  are not inflicted (Minelayers is spent all the same).
- **A minefield removed**: a TI3 scenario has no minefield: never acts.
- **One PDS die re-rolled**: once the opponent's PDS fire is rolled (before a space battle, or
  at the ground forces landing on its planet), the holder may make it re-roll one of its dice
  that hit (the second result kept). While the holder may play the card,
  the opponent's PDS fire is rolled group by group (as Recheck's combat rolls, 27S-38, in the
  same ``Ti3State`` fields: ``checked`` the hits of each group, ``rerolling`` the group re-rolled,
  ``recheck_asked`` 1 once the holder was asked), so that which dice hit is known by unit type.
  One option per group with a hit (plain dice), the likeliest to miss first, then "pass"; the
  stock holder takes the first (27A-5). With the PDS owner's Graviton Laser System
  (27S-44) its misses are re-rolled first, as part of the roll ("Each PDS die that misses may
  be re-rolled once", one group of dice: their hits are an extra entry of ``checked``); the
  card answers the roll once made, any die that hit (first roll or re-roll) alike, and its
  second result stands (Graviton Laser System does not re-roll it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.pool import DicePool
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities import graviton_laser_system
from spacecombat.rulesets.ti3.cards.common import card_played, offer, offer_choices
from spacecombat.rulesets.ti3.cards.minelayers import ASKED, LAID
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "faulty_targeting_systems"

A = Side.ATTACKER

#: ``step`` once the attacker kept the Minelayers' hits (it passed)
KEPT = "minelayers:hits:kept"

#: the rolls whose dice it may have re-rolled (the ``purpose`` of their exchange)
PDS_FIRE = ("pds_fire", "pds_fire_at_landing")


# --- Minelayers prevented --------------------------------------------------------------------


def prevents(state: Ti3State) -> bool:
    """Minelayers was just played and the attacker may play this card."""
    return state.step == LAID and CARD in state.playable(A)


def ask_prevent(state: Ti3State) -> Node[Ti3State]:
    """The attacker may prevent Minelayers: its cruisers' hits are not inflicted."""

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(after.with_hits_on(A, 0).changed(step=ASKED))

    return offer(
        A,
        CARD,
        state,
        "play Faulty Targeting Systems: prevent Minelayers (no hit from the cruisers)?",
        play,
        state.changed(step=KEPT),
    )


# --- one PDS die re-rolled -------------------------------------------------------------------


def applies(state: Ti3State, roller: Side, purpose: str) -> bool:
    """Whether ``roller``'s roll is PDS fire made group by group: its opponent may play the
    card, or the roll is under way."""
    if purpose not in PDS_FIRE:
        return False
    underway = bool(state.checked) or state.rerolling >= 0 or state.recheck_asked > 0
    return underway or CARD in state.playable(roller.other)


def roll(
    state: Ti3State,
    roller: Side,
    dice: DicePool,
    purpose: str,
    finish: Callable[[Ti3State], Ti3State],
    rerolls: bool = False,
) -> Node[Ti3State]:
    """The next group of ``roller``'s PDS fire; once all are rolled, with ``rerolls``
    (Graviton Laser System, 27S-44) its misses re-rolled once; then its opponent is asked;
    then the re-rolled die; then ``finish`` (the roll's usual next state)."""
    done = state.checked
    target = roller.other
    if state.rerolling >= 0:
        g = state.rerolling
        die = DicePool((replace(dice.groups[g], dice=1),))

        def again(hits: int) -> Step[Ti3State]:
            after = state.with_hits_on(target, state.hits_on(target) + hits)
            return Step(finish(after.changed(checked=(), rerolling=-1, recheck_asked=0)))

        return Chance(roller.value, purpose, die, again)
    if len(done) < len(dice.groups):
        group = dice.groups[len(done)]

        def rolled(hits: int) -> Step[Ti3State]:
            after = state.with_hits_on(target, state.hits_on(target) + hits)
            return Step(after.changed(checked=(*done, hits)))

        return Chance(roller.value, purpose, DicePool((group,)), rolled)
    if rerolls and len(done) == len(dice.groups) and not state.recheck_asked:
        # Graviton Laser System: the PDS's misses re-rolled once, part of the roll (27S-44;
        # not the Loncara Ssodu's dice beside them: 27Y-11)
        g = _pds_index(dice)
        misses = dice.groups[g].dice - done[g]
    else:
        misses = 0
    if misses > 0:
        missed = DicePool((replace(dice.groups[g], dice=misses),))

        def rerolled(hits: int) -> Step[Ti3State]:
            after = state.with_hits_on(target, state.hits_on(target) + hits)
            return Step(after.changed(checked=(*done, hits)))

        return Chance(roller.value, purpose, missed, rerolled)
    state = state.changed(checked=_by_group(state.checked, dice, rerolls))
    choices = _choices(state, dice)
    if not state.recheck_asked and CARD in state.playable(target) and choices:
        return _ask(state, roller, dice, choices)
    return Step(finish(state.changed(checked=(), recheck_asked=0)))


def _pds_index(dice: DicePool) -> int:
    """The index of the PDS's group in a PDS fire pool (the one Graviton Laser System
    re-rolls)."""
    return dice.groups.index(graviton_laser_system.pds_group(dice))


def _by_group(checked: tuple[int, ...], dice: DicePool, rerolls: bool) -> tuple[int, ...]:
    """The hits of each group, Graviton Laser System's re-rolled hits (an extra entry) added
    to the PDS's group's."""
    n = len(dice.groups)
    if len(checked) <= n:
        return checked
    assert rerolls
    by_group = list(checked[:n])
    by_group[_pds_index(dice)] += sum(checked[n:])
    return tuple(by_group)


def _choices(state: Ti3State, dice: DicePool) -> list[tuple[Fraction, int]]:
    """(chance to miss, group) of each group with a die that hit, likeliest to miss first."""
    found = [
        (1 - group.hit_chance, index)
        for index, (group, hits) in enumerate(zip(dice.groups, state.checked, strict=True))
        if hits and group.plain and group.mark_on is None and group.hit_chance < 1
    ]
    return sorted(found, key=lambda c: (-c[0], c[1]))


def _ask(
    state: Ti3State, roller: Side, dice: DicePool, choices: list[tuple[Fraction, int]]
) -> Node[Ti3State]:
    holder = roller.other
    asked = state.changed(recheck_asked=1)

    def play(index: int) -> Step[Ti3State]:
        _, g = choices[index]
        spent = asked.played(holder, CARD)
        spent = spent.with_hits_on(holder, spent.hits_on(holder) - 1)
        checked = list(spent.checked)
        checked[g] -= 1
        return Step(
            spent.changed(checked=tuple(checked), rerolling=g),
            (card_played(holder, CARD, state.round),),
        )

    return offer_choices(
        holder,
        CARD,
        state,
        "play Faulty Targeting Systems: make the opponent re-roll one PDS die that hit?",
        [
            f"play {CARD}: re-roll a hit of {roller.value}'s {dice.groups[g].unit}"
            for _, g in choices
        ],
        play,
        asked,
    )
