"""Chemical Warfare (TI3 base action card; data/action_cards.toml; docs/rulings.md 27A-6):
immediately before an invasion combat, a player with a dreadnought in the system destroys
half of the defending ground forces on the planet (rounded up); the planet's PDS do not stop it.

"Immediately before an invasion combat": after the bombardment and the PDS fire at the landing
ground forces (the spec puts both before the invasion combat), just before its first round,
when there is a combat to fight. "Ground forces": ground forces and shock troops (Mechanized
Units are immune to effects that name ground forces, ti3-facts.md section 8); the defender
removes them as casualties, shock troops first (ti3-facts.md section 8)."""

from __future__ import annotations

from collections.abc import Callable

from spacecombat.core.engine import Node, Step
from spacecombat.core.sides import Side
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "chemical_warfare"

A, D = Side.ATTACKER, Side.DEFENDER


def defending(setup: Ti3Setup, state: Ti3State) -> int:
    """The defending ground forces (and shock troops) on the planet fought over."""
    planet = state.defender.planet(state.planet)
    return sum(planet.count(u) for u in GROUND_FORCES)


def applies(setup: Ti3Setup, state: Ti3State) -> bool:
    """The attacker holds the card, has a dreadnought in the system, an invasion combat is
    about to be fought on the planet, and there are ground forces to destroy."""
    p = state.planet
    return (
        CARD in state.hand(A)
        and bool(state.attacker.space.count("dreadnought"))
        and bool(ground_forces(setup, state, A, p))
        and bool(ground_forces(setup, state, D, p))
        and defending(setup, state) > 0
    )


def ask(
    setup: Ti3Setup, state: Ti3State, passed: Ti3State, hit: Callable[[Ti3State, int], Ti3State]
) -> Node[Ti3State]:
    """The attacker may play the card: ``hit(state, n)`` has the defender take ``n`` hits on
    its ground forces (half of them, rounded up); ``passed``: the state if it does not."""
    half = (defending(setup, state) + 1) // 2

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(hit(after, half))

    return offer(
        A,
        CARD,
        state,
        f"play Chemical Warfare on {setup.planets[state.planet]}: destroy {half} defending "
        "ground force(s)?",
        play,
        passed,
        facts={"destroys": half},
    )
