"""The Alastor, the Nekro Virus flagship (Shards of the Throne; data/units.toml; docs/rulings.md
27S-8): when it is destroyed while its owner is the defender, every unit in the system's space
area is destroyed, both players' (PC_Twi GameEffects/races/r_Nekro.cpp e_NekroFlagship: "Alastor
was destroyed, all fleets in this system are destroyed", for the army that is not the
attacker's).

The flagship's removal marks the state (``fell``: a hit, or a card that destroys it); the
removal of casualties then destroys the rest (``destroy_all``) before anything else happens,
so the hits still to be taken are lost with the units."""

from __future__ import annotations

from spacecombat.core.engine import Step
from spacecombat.core.forces import Forces
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.sides import SIDES, Side
from spacecombat.rulesets.ti3.abilities.races import FLAGSHIP, NekroFlagship
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State


def fell(setup: Ti3Setup, state: Ti3State, side: Side, unit: str) -> Ti3State:
    """``side``'s ``unit`` was just destroyed: mark the state if it was the defender's
    Alastor in a space battle."""
    if (
        side is Side.DEFENDER
        and unit == FLAGSHIP
        and setup.kind == "space"
        and setup.side(side).has(NekroFlagship.id)
    ):
        return state.changed(alastor=True)
    return state


def destroy_all(state: Ti3State) -> Step[Ti3State]:
    """Every unit in the space area is destroyed, the attacker's first; hits not yet taken are
    lost with them."""
    said = []
    after = state
    for side in SIDES:
        for unit, status, count in state.side(side).space:
            said += [unit_destroyed(side, unit, status, "The Alastor")] * count
        after = after.with_side(side, after.side(side).with_space(Forces()))
    return Step(after.changed(alastor=False, hits=(0, 0), sustained=None), tuple(said))
