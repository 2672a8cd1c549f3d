"""Flanking Tactic (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-22):
"Your opponent may not retreat from the battle (regardless of Special Abilities or Action Cards
that would allow a retreat). Play: Immediately before a Space Battle in which you are
participating" (the TI3 base deck data file, 27S-17).

Window: the space battle's opening (after PDS fire; the attacker asked first). Offered when
the opponent could otherwise leave: it has a retreat destination, or holds Skilled Retreat.
Played, the opponent announces no withdrawal or retreat and may not play Skilled Retreat for
the rest of the battle (``Ti3State.flanked``). The Naalu's retreat before the battle comes
earlier (27S-16), before this card can be played."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.sides import Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup, why_not_destination
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "flanking_tactic"

A = Side.ATTACKER


def flanked(state: Ti3State, side: Side) -> bool:
    """Whether ``side`` may not retreat (its opponent played the card)."""
    return state.flanked[0 if side is A else 1]


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    enemy = side.other
    could_leave = any(why_not_destination(enemy, s) is None for s in setup.adjacent) or (
        "skilled_retreat" in state.hand(enemy)
    )
    return (
        setup.kind == "space"
        and CARD in state.hand(side)
        and bool(ships(setup, state, enemy))
        and could_leave
    )


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may forbid its opponent to retreat."""

    def play(after: Ti3State) -> Step[Ti3State]:
        a, d = after.flanked
        flanked_now = (True, d) if side.other is A else (a, True)
        return Step(after.changed(step=passed.step, flanked=flanked_now))

    return offer(
        side, CARD, state, "play Flanking Tactic: your opponent may not retreat?", play, passed
    )
