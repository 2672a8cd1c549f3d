"""Dacxive Animators (TI3, green; ti3-facts.md section 9): after winning an invasion combat,
roll one die per ground force destroyed in it, on both sides; each 6 or more places a free
ground force on the planet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Chance, Step
from spacecombat.core.events import event
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.sides import SIDES, Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti3.setup import Ti3Setup
    from spacecombat.rulesets.ti3.state import Ti3State

#: each die hits on 6 or more
VALUE = 6


def counts_fallen(setup: Ti3Setup) -> bool:
    """Whether the battle must count the ground forces destroyed (someone has the tech)."""
    return any(side.has("dacxive_animators") for side in setup.sides.values())


def winner(setup: Ti3Setup, state: Ti3State) -> Side | None:
    """The player who won the current planet's invasion combat, if one was fought."""
    p = state.planet
    if not state.ground_rounds[p]:
        return None
    left = [
        side for side in SIDES if state.side(side).planet(p).total(setup.side(side).is_ground_force)
    ]
    return left[0] if len(left) == 1 else None


def applies(setup: Ti3Setup, state: Ti3State) -> bool:
    side = winner(setup, state)
    return side is not None and setup.side(side).has("dacxive_animators") and state.fallen > 0


def roll(setup: Ti3Setup, state: Ti3State) -> Chance[Ti3State]:
    side = winner(setup, state)
    assert side is not None
    dice = DicePool.of([DiceGroup("ground_force", state.fallen, VALUE)])
    p = state.planet

    def then(hits: int) -> Step[Ti3State]:
        planet = (
            state.side(side).planet(p).add("ground_force", count=hits)
            if hits
            else state.side(side).planet(p)
        )
        after = state.with_side(side, state.side(side).with_planet(p, planet))
        return Step(
            after.changed(step="dacxive"),
            (event("ground_forces_animated", player=side.value, count=hits),),
        )

    return Chance(side.value, "dacxive_animators", dice, then)
