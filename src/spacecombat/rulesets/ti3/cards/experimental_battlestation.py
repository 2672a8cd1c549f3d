"""Experimental Battlestation (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-20): "Choose one Space Dock. That Space Dock can immediately fire three times at an enemy
fleet in range as if the Space Dock were one of your PDS units. Play: After an opponent has
activated a system and moved any ships into the system" (the TI3 base deck data file, 27S-17).

The holder is the defender (the opponent activated the system); asked as PDS fire begins,
when it has a space dock on a planet of the system and the attacker has ships there. Played,
its PDS fire has three more PDS dice (one group with its PDS: a PDS's value and modifiers,
Graviton Laser System's re-rolls alike)."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.sides import Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "experimental_battlestation"

#: the shots the space dock fires
SHOTS = 3

D = Side.DEFENDER

#: ``step`` once the defender was asked
ASKED = "experimental_battlestation"


def applies(setup: Ti3Setup, state: Ti3State) -> bool:
    return (
        setup.kind == "space"
        and state.step == ""
        and CARD in state.hand(D)
        and bool(state.defender.planet(0).count("space_dock"))
        and bool(ships(setup, state, Side.ATTACKER))
    )


def ask(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The defender may have a space dock fire three times with its PDS."""
    asked = state.changed(step=ASKED)

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(after.changed(step=ASKED))

    return offer(
        D,
        CARD,
        state,
        "play Experimental Battlestation: a space dock fires three times as a PDS?",
        play,
        asked,
    )


def shots(setup: Ti3Setup, state: Ti3State, side: Side) -> int:
    """The PDS dice the card adds to ``side``'s PDS fire (0 unless it played the card)."""
    played = CARD in state.spent_by(side)
    return SHOTS if played and state.side(side).planet(0).count("space_dock") else 0
