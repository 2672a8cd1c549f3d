"""Emergency Repairs (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-24): "Choose
a system. Immediately repair all of your Dreadnoughts and War Suns in the chosen system. Play:
At any time." (the TI3 base deck data file, 27S-17).

Window: the start of each combat round of a space battle (procedures/round_start.py, the
attacker asked first), offered while the holder has a damaged dreadnought or war sun in the
space area: played, every one of them is undamaged again (it may use SUSTAIN DAMAGE again).
The card's "at any time" is taken at the round's start only (not between two hits of one
removal of casualties, nor in the pre-combat steps). The stock holder plays it at the first
chance (27A-5); ``policy.play: {emergency_repairs: {round: N}}`` from round N."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "emergency_repairs"

#: the units the card repairs
REPAIRED = ("dreadnought", "war_sun")

#: what a unit may be when it is repaired
_DAMAGED = (Status.DAMAGED, Status.SUSTAINED_THIS_ROUND)


def _damaged(state: Ti3State, side: Side) -> list[tuple[str, Status, int]]:
    return [(u, s, n) for u, s, n in state.side(side).space if u in REPAIRED and s in _DAMAGED]


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` holds the card in a space battle and has a damaged dreadnought or war sun."""
    return setup.kind == "space" and CARD in state.hand(side) and bool(_damaged(state, side))


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may play the card, repairing all its dreadnoughts and war suns."""

    def play(after: Ti3State) -> Step[Ti3State]:
        space = after.side(side).space
        said = []
        for unit, status, count in _damaged(after, side):
            for _ in range(count):
                space = space.move(unit, status, Status.UNDAMAGED)
                said.append(
                    event("unit_repaired", player=side.value, unit=unit, by="Emergency Repairs")
                )
        repaired = after.with_side(side, after.side(side).with_space(space))
        return Step(repaired.changed(step=passed.step), tuple(said))

    return offer(
        side,
        CARD,
        state,
        f"round {state.round}: play Emergency Repairs, repairing all your dreadnoughts and "
        "war suns?",
        play,
        passed,
    )
