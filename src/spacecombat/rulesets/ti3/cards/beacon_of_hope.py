"""A Beacon of Hope (TI3 Shards of the Throne action card; data/action_cards.toml;
docs/rulings.md 27S-7): played before a space battle in which the holder's flagship takes
part, each of the holder's combat dice in that battle's rounds that rolls a 10 produces one hit
more (PC_Twi a_BeforeBattleRound.cpp e_a_BeaconOfHope: "All your units inflict 1 additional
damage on 10": each unit's critical hit on 10, or one more for a unit that already has one,
the J.N.S. Hylarim's).

Window: "immediately before a space battle", with Into the Breach and Fighter Prototype (the
attacker asked first); only a holder whose flagship is in the battle, facing enemy ships."""

from __future__ import annotations

from spacecombat.core.engine import Node
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.base import RollKind
from spacecombat.rulesets.ti3.cards.common import held_with_unit, offer_kept
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "beacon_of_hope"

#: the face that produces the extra hit
FACE = 10


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` holds the card, its flagship is in the battle and it faces enemy ships."""
    return held_with_unit(setup, state, side, CARD, "flagship")


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may play the card."""
    return offer_kept(
        side,
        CARD,
        state,
        "play A Beacon of Hope: each 10 your units roll in this battle's rounds one hit more?",
        passed,
    )


def in_play(setup: Ti3Setup, state: Ti3State, roller: Side, kind: RollKind) -> bool:
    """Whether ``roller`` played the card (``spent_by``) and this roll is a round's
    combat dice of the space battle (PC_Twi gives the critical to the units' space battle
    roll)."""
    return kind is RollKind.SPACE_COMBAT and CARD in state.spent_by(roller)
