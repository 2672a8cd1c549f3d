"""What Overrun and Geomagnetic Mines share: before an invasion combat, the holder destroys one
of the opponent's ground units of the kinds the card names, on the planet fought over."""

from __future__ import annotations

from collections.abc import Sequence

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.state import Ti3State


def target(state: Ti3State, side: Side, kinds: Sequence[str]) -> tuple[str, Status] | None:
    """The unit of ``side``'s opponent the card destroys: the first of ``kinds`` it has on the
    planet, undamaged before damaged (the holder takes the one worth more)."""
    planet = state.side(side.other).planet(state.planet)
    for unit in kinds:
        for status in (Status.UNDAMAGED, Status.DAMAGED):
            if planet.count(unit, status):
                return unit, status
    return None


def ask(
    card: str,
    name: str,
    state: Ti3State,
    side: Side,
    passed: Ti3State,
    kinds: Sequence[str],
) -> Node[Ti3State]:
    """``side`` may play ``card`` to destroy one of the opponent's ``kinds`` on the planet."""
    found = target(state, side, kinds)
    assert found is not None
    unit, status = found
    enemy = side.other

    def play(after: Ti3State) -> Step[Ti3State]:
        own = after.side(enemy)
        planet = own.planet(after.planet).remove(unit, status)
        done = after.with_side(enemy, own.with_planet(after.planet, planet))
        return Step(done.changed(step=passed.step), (unit_destroyed(enemy, unit, status, name),))

    return offer(
        side,
        card,
        state,
        f"play {name}: destroy one of your opponent's {unit.replace('_', ' ')}s on the planet?",
        play,
        passed,
        facts={"unit": unit},
    )
