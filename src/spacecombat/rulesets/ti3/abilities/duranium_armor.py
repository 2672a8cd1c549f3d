"""Duranium Armor (TI3, red): at the end of each combat round of a space battle, its owner may
repair one damaged unit in the battle (ti3-facts.md section 9; docs/rulings.md T8). With the
option ``duranium_not_damaged_this_round`` (the TI4 wording), not a unit damaged this round.
A repair of the dreadnought Into the Breach chose changes what it owes (docs/rulings.md 27Y-8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status, describe
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.cards import into_the_breach

if TYPE_CHECKING:
    from spacecombat.rulesets.ti3.setup import Ti3Setup
    from spacecombat.rulesets.ti3.state import Ti3State


DREADNOUGHT = "dreadnought"


def tracks_this_round(setup: Ti3Setup) -> bool:
    """Whether a unit damaged this round must be told apart from one damaged before."""
    return setup.options.duranium_not_damaged_this_round and any(
        side.has("duranium_armor") for side in setup.sides.values()
    )


def repair(
    setup: Ti3Setup, state: Ti3State, proceed: Callable[[Ti3State], Step[Ti3State]]
) -> Node[Ti3State]:
    """The attacker's repair, then the defender's (``state.turn``), then ``proceed``."""
    side = state.turn

    def onward(after: Ti3State, events: tuple[dict[str, object], ...] = ()) -> Step[Ti3State]:
        if side is Side.ATTACKER:
            return Step(after.changed(turn=Side.DEFENDER), events)
        nxt = proceed(after.changed(turn=Side.ATTACKER))
        return Step(nxt.state, (*events, *nxt.events))

    space = state.side(side).space
    allowed: tuple[Status, ...] = (Status.DAMAGED,)
    if not setup.options.duranium_not_damaged_this_round:
        allowed = (Status.DAMAGED, Status.SUSTAINED_THIS_ROUND)
    damaged = [(u, s) for u, s, _ in space if s in allowed]
    if not setup.side(side).has("duranium_armor") or not damaged:
        return onward(state)
    options = [Option(f"repair {describe(u, s)}", "repair", u, s) for u, s in damaged]
    # Into the Breach's damaged chosen dreadnought: repaired, it owes the rest of the first 2
    # hits; with another damaged dreadnought, repairing it is its own option (27Y-8, 27Y-9)
    chosen = into_the_breach.chosen_damaged(state, side)
    several = sum(space.count(DREADNOUGHT, s) for s in allowed) > 1
    if chosen and several:
        options += [
            Option(f"repair {describe(u, s)}{into_the_breach.CHOSEN}", "repair", u, s)
            for u, s in damaged
            if u == DREADNOUGHT
        ]
    request = DecisionRequest(
        decision="repair",
        player=side.value,
        prompt="Duranium Armor: repair one damaged unit",
        options=tuple(options),
    )

    def then(option: Option) -> Step[Ti3State]:
        unit, status = option.unit or "", Status(option.status or 0)
        fixed = state.with_side(
            side, state.side(side).with_space(space.move(unit, status, Status.UNDAMAGED))
        )
        if (
            chosen
            and unit == DREADNOUGHT
            and (option.text.endswith(into_the_breach.CHOSEN) or not several)
        ):
            fixed = into_the_breach.repaired(fixed, side)
        return onward(
            fixed, (event("unit_repaired", player=side.value, unit=unit, by="Duranium Armor"),)
        )

    return Decision(request, then)
