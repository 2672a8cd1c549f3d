"""Friendly Fire (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-19): "If
your opponent has more fighters than non-Fighter ships in this system, he must immediately lose
half of his Fighters here (rounded down)", played immediately before a space battle you fight
(the TI3 base deck data file, 27S-17).

Window: the opening of the space battle, with Into the Breach (the attacker asked first);
offered when the opponent has more fighters than other ships and at least two fighters (half
of one, rounded down, is none)."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "friendly_fire"


def _lost(setup: Ti3Setup, state: Ti3State, side: Side) -> int:
    """The fighters ``side``'s opponent would lose (0: the card does nothing)."""
    enemy = side.other
    space = state.side(enemy).space
    cards = setup.side(enemy)
    fighters = space.count("fighter")
    others = space.total(lambda u: cards.is_ship(u) and u != "fighter")
    return fighters // 2 if fighters > others else 0


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    return setup.kind == "space" and CARD in state.hand(side) and _lost(setup, state, side) > 0


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may make its opponent lose half its fighters."""
    lost = _lost(setup, state, side)
    enemy = side.other

    def play(after: Ti3State) -> Step[Ti3State]:
        own = after.side(enemy)
        space = own.space.remove("fighter", Status.UNDAMAGED, lost)
        done = after.with_side(enemy, own.with_space(space)).changed(step=passed.step)
        said = tuple(
            unit_destroyed(enemy, "fighter", Status.UNDAMAGED, "Friendly Fire") for _ in range(lost)
        )
        return Step(done, said)

    return offer(
        side,
        CARD,
        state,
        f"play Friendly Fire: your opponent loses {lost} fighter(s)?",
        play,
        passed,
        facts={"fighters": lost},
    )
