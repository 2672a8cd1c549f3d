"""Morale Boost (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-3): played at
the start of a combat round, the holder's units get +1 on all their combat rolls in that round
(PC_Twi a_BeforeBattleRound.cpp e_a_MoraleBoost: "Before battle round. Receive +1 to all
combat rolls in this round", in a space battle or an invasion combat).

Window: the start of each combat round, before withdrawals and retreats are announced (space
battle) and before the dice (both), the attacker asked first (procedures/round_start.py). Each
copy once: a side holds one (27A-9)."""

from __future__ import annotations

from spacecombat.core.engine import Node
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.base import RollKind
from spacecombat.rulesets.ti3.cards.common import marked, offer_kept
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "morale_boost"

A = Side.ATTACKER


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` still holds the card (a round is about to be fought)."""
    return CARD in state.hand(side)


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may play the card for this round."""
    return offer_kept(
        side,
        CARD,
        state,
        f"round {state.round}: play Morale Boost, +1 on all your combat rolls this round?",
        passed,
        boosted=marked(state.boosted, side),
    )


def in_play(state: Ti3State, roller: Side, kind: RollKind) -> bool:
    """Whether ``roller`` played the card this round and this roll is the round's dice."""
    played = state.boosted[0 if roller is A else 1]
    return played and kind in (RollKind.SPACE_COMBAT, RollKind.INVASION_COMBAT)
