"""The start of a combat round, where action cards played "at the start of a combat round"
are played (Skilled Retreat, Emergency Repairs, Experimental Weaponry, then Morale Boost), and
Exotrireme and the Yin sacrifice are offered before round 2 (abilities/exotrireme.py,
abilities/yin_sacrifice.py): in a space battle before withdrawals and retreats are announced,
in an invasion combat before the dice; the attacker is asked first, then the defender
(docs/rulings.md 27S-3). The battle passes through this step only when such a card or ability
is held (``first_phase``), so a battle without one is played as before."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.sides import SIDES, Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3.abilities import exotrireme, yin_sacrifice
from spacecombat.rulesets.ti3.abilities.races import Exotrireme, YinSacrifice
from spacecombat.rulesets.ti3.cards import (
    emergency_repairs,
    experimental_weaponry,
    morale_boost,
    skilled_retreat,
)
from spacecombat.rulesets.ti3.cards.common import WindowCard, held_by_anyone, window
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

#: the cards played at the start of a combat round, in the order each player is asked
CARDS: tuple[WindowCard, ...] = (
    exotrireme,
    yin_sacrifice,
    skilled_retreat,
    emergency_repairs,
    experimental_weaponry,
    morale_boost,
)

#: ``step`` while the players are asked
_ASKING = "round_cards:"


def first_phase(setup: Ti3Setup, phase: Phase) -> Phase:
    """The phase a combat round begins in: ``phase`` (the round's first step), or the start of
    the round when a card played then is held."""
    exotrireme_held = any(
        s.has(Exotrireme.id) or s.has(YinSacrifice.id) for s in setup.sides.values()
    )
    if setup.kind == "space" and exotrireme_held:
        return Phase.START_OF_ROUND
    return Phase.START_OF_ROUND if held_by_anyone(setup, CARDS) else phase


def start_of_round(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Ask the players about the cards of the round's start, then go on with the round's first
    step (announce withdrawals in a space battle, the dice in an invasion combat). What was
    played at a previous round's start is over."""
    if not state.step.startswith(_ASKING):
        state = state.changed(boosted=(False, False), weaponry=(False, False))
    first = Phase.ANNOUNCE_WITHDRAWALS if setup.kind == "space" else Phase.INVASION_ROUND

    def finish(after: Ti3State) -> Step[Ti3State]:
        if setup.kind == "space" and not all(ships(setup, after, s) for s in SIDES):
            # Exotrireme destroyed the last ships of a side: the round is not fought
            return Step(after.at(Phase.END_OF_SPACE_BATTLE, round=after.round - 1, step=""))
        return Step(after.at(first, turn=Side.ATTACKER, step=""))

    return window(setup, state, CARDS, _ASKING, finish)
