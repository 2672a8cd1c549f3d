"""Graviton Negator's fighters in invasion combat (TI3 technology card: "Fighters may
participate in Invasion Combat (return to space after combat)"; docs/rulings.md 27Y-1 to 27Y-6).

The attacker names the fighters that join the combat on each planet (``planets[i].commit.fighter``,
none by default); they are set on the planet with the landing ground units (setup.py). There
they roll in each invasion combat round at their own combat value with the modifiers that
reach fighters' combat rolls (27Y-3), may be taken as casualties of the round's hits (27Y-4),
keep the combat going while they are left (27Y-5), never make the invasion succeed, and the
survivors go back to the space area once the combat on their planet is over (27Y-6)."""

from __future__ import annotations

from spacecombat.core.events import Event, event
from spacecombat.core.sides import Side
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti3.abilities.markers import GravitonNegator
from spacecombat.rulesets.ti3.setup import Ti3Setup, Ti3Side
from spacecombat.rulesets.ti3.state import Ti3State

FIGHTER = "fighter"


def joins(cards: Ti3Side, unit: str) -> bool:
    """Whether ``unit`` on a planet is a fighter that joined the invasion combat there (only
    the holder of Graviton Negator has fighters on a planet)."""
    return unit == FIGHTER and cards.has(GravitonNegator.id)


def fighting(setup: Ti3Setup, state: Ti3State, side: Side, planet: int) -> int:
    """How many of ``side``'s units are in the invasion combat on ``planet``: its ground units
    and the fighters that joined it (27Y-5)."""
    units = state.side(side).planet(planet)
    return ground_forces(setup, state, side, planet) + units.count(FIGHTER)


def return_to_space(state: Ti3State, side: Side) -> tuple[Ti3State, tuple[Event, ...]]:
    """The fighters left on the current planet go back to ``side``'s space area (27Y-6), with
    an event saying so (none when no fighter is there)."""
    p = state.planet
    units = state.side(side)
    here = units.planet(p)
    back = [(u, s, n) for u, s, n in here if u == FIGHTER]
    if not back:
        return state, ()
    space = units.space
    for unit, status, count in back:
        here = here.remove(unit, status, count)
        space = space.add(unit, status, count)
    moved = state.with_side(side, units.with_space(space).with_planet(p, here))
    count = sum(n for _, _, n in back)
    return moved, (event("fighters_returned", player=side.value, count=count),)
