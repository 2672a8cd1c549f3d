"""Experimental Weaponry (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-26): "Until the end of the combat round, all hits from your Dreadnoughts and War Suns may
not be applied to Fighters (unless there are no other ships present). Play: Immediately
before any round of combat" (the TI3 base deck data file, 27S-17).

Window: the start of each combat round of a space battle (procedures/round_start.py, the
attacker asked first), offered while the holder has a dreadnought or war sun in the space
area and the opponent has both fighters and another ship (else the card changes nothing).
Played, the holder's roll of that round is made as [0.0.1]'s (abilities/l1z1x_flagship.py,
27S-9): its dreadnoughts' and war suns' dice first, their hits counted apart and taken first,
each on a non-fighter ship while the opponent has one. The stock holder plays it at the first
chance (27A-5)."""

from __future__ import annotations

from spacecombat.core.engine import Node
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities import van_hauge
from spacecombat.rulesets.ti3.cards.common import marked, offer_kept
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "experimental_weaponry"

#: the units whose hits may not go on fighters
HEAVY = ("dreadnought", "war_sun")

A = Side.ATTACKER


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` holds the card in a space battle, has a dreadnought or war sun there, and the
    opponent has fighters and another ship."""
    if setup.kind != "space" or CARD not in state.hand(side):
        return False
    own = state.side(side).space
    theirs = setup.side(side.other)
    enemy = [u for u, _, _ in state.side(side.other).space if theirs.is_ship(u)]
    # Van Hauge's ground forces fighting as fighters are fighters for the card (27T-12)
    fighters = "fighter" in enemy or van_hauge.as_fighters(setup, state, side.other) > 0
    return any(own.count(u) for u in HEAVY) and fighters and any(u != "fighter" for u in enemy)


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may play the card for this round."""
    return offer_kept(
        side,
        CARD,
        state,
        f"round {state.round}: play Experimental Weaponry, your dreadnoughts' and war suns' "
        "hits not on fighters this round?",
        passed,
        weaponry=marked(state.weaponry, side),
    )


def in_play(state: Ti3State, roller: Side) -> bool:
    """Whether ``roller`` played the card this round."""
    return state.weaponry[0 if roller is A else 1]
