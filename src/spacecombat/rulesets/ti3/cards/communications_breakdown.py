"""Communications Breakdown (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-29): "No players may play Action Cards until the end of the battle. Play: Immediately
before a Space Battle in which you are participating" (the TI3 base deck data file, 27S-17).

Played in the space battle's opening window, the first card asked there (procedures/
space_battle.py ``_OPENING``; the attacker asked first: 27S-2), offered while the opponent
still holds an action card. Played, no action card is played by either player until the battle
ends (``Ti3State.silenced``: the card windows skip action cards, and Direct Hit and Shields
Holding are not offered); racial abilities and technologies (Exotrireme, the Yin sacrifice)
are not action cards and still act. The stock holder plays it only where it gains: the
opponent holds more action cards than the holder's others (27S-23's measure of a card's worth
for the stock player); ``policy.play`` naming a round plays it whenever offered."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.cards.common import offer, play_first
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "communications_breakdown"


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    return (
        setup.kind == "space"
        and not state.silenced
        and CARD in state.hand(side)
        and bool(state.hand(side.other))
    )


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may stop every action card until the battle ends."""
    theirs, ours = len(state.hand(side.other)), len(state.hand(side)) - 1

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(after.changed(step=passed.step, silenced=True))

    return offer(
        side,
        CARD,
        state,
        "play Communications Breakdown: no action cards until the end of the battle?",
        play,
        passed,
        first=play_first(setup, side, CARD, theirs > ours),
    )
