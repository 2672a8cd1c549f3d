"""Dug In (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-21): "Choose a
planet. Your Ground Forces on that planet are immune to planetary bombardment this round. Play:
Immediately before bombardment" (the TI3 base deck data file, 27S-17).

The defender is asked on each planet about to be bombarded (bombardment dice would be rolled at
its ground forces), before the attacker chooses between bombarding and X-89 Bacterial Weapon;
played, no bombardment die is rolled at that planet (X-89 Bacterial Weapon is not bombardment,
ti3-facts.md 7.2: it still may be used). One copy: one planet."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "dug_in"

D = Side.DEFENDER

#: ``step`` of the bombardment once the defender was asked
ASKED = "dug_in_asked"


def ask(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The defender may make its ground forces on the planet immune to the bombardment."""
    asked = state.changed(step=ASKED)

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(after.changed(step=ASKED, dug_in=state.planet + 1))

    return offer(
        D,
        CARD,
        state,
        f"play Dug In: your ground forces on {setup.planets[state.planet]} immune to this "
        "bombardment?",
        play,
        asked,
    )


def holds(state: Ti3State) -> bool:
    return CARD in state.hand(D)


def dug_in(state: Ti3State) -> bool:
    """Whether the planet fought over was chosen with Dug In."""
    return state.dug_in == state.planet + 1
