"""Shields Holding (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-18):
"Cancel up to two hits during one round of a Space Battle in which you participate", played
"immediately after your opponent has rolled all combat dice and before you have removed
casualties" (the TI3 base deck data file, 27S-17).

Offered to the holder when it is about to remove the casualties of a combat round of a space
battle with at least one hit against it (not anti-fighter barrage, pre-combat shots or PDS
fire: they are not a round's combat dice); once per removal (``Ti3State.step`` marks that the
holder was asked). Played, the hits against the holder fall by two (by one if only one)."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

CARD = "shields_holding"

#: hits the card cancels at most
CANCELS = 2


def asked(side: Side) -> str:
    """``step`` once ``side`` was asked in this removal of casualties."""
    return f"shields_holding_{side.value}"


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    return (
        setup.kind == "space"
        and state.phase is Phase.REMOVE_CASUALTIES
        and CARD in state.playable(side)
        and state.hits_on(side) > 0
        and state.step != asked(side)
    )


def ask(setup: Ti3Setup, state: Ti3State, side: Side) -> Node[Ti3State]:
    """``side`` may cancel up to two of the hits against it."""
    hits = state.hits_on(side)
    cancelled = min(CANCELS, hits)
    marked = state.changed(step=asked(side))

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(after.with_hits_on(side, hits - cancelled).changed(step=asked(side)))

    return offer(
        side,
        CARD,
        state,
        f"{hits} hit(s) against you this round: play Shields Holding to cancel {cancelled}?",
        play,
        marked,
        facts={"hits": hits},
    )
