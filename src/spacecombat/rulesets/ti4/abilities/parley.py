"""Parley (action card): after another player commits units to land on a planet you control,
return those units to the space area (ti4-combat-effects.md §6; data/cards.toml).

Only the defender controls the invaded planets. Offered through "play_card" after step 2 of
the invasion, planet by planet, before space cannon defense (invasion.py
``commit_ground_forces``, ``after_commit``), for each planet the attacker committed units to;
played once. The units committed there go back to the attacker's space area
(``ground_forces_returned``; fighters committed by the Naalu Matriarch go back as fighters,
docs/rulings.md 14M-4); no ground combat is fought on that planet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Forces
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Card, register
from spacecombat.rulesets.ti4.abilities.naalu_flagship_fighters_invade import as_fighters
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class Parley(Card):
    id = "parley"
    battles = INVASION_ONLY  # played when ground forces are committed (24AJ-1)
    card = "parley"

    def after_commit(
        self, setup: BattleSetup, state: BattleState, planet: int
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is not Side.DEFENDER or not self.held(state):
            return None
        invader = owner.other
        landed = state.side(invader).planet(planet)
        if not landed:
            return None
        name = setup.planets[planet]

        def play(s: BattleState) -> Step[BattleState]:
            theirs = s.side(invader)
            # fighters committed by the Matriarch are fighters again in the space area
            arrived = as_fighters(landed)
            back = theirs.with_planet(planet, Forces()).with_space(theirs.space.plus(arrived))
            returned = event(
                "ground_forces_returned", planet=name, units=arrived.to_json(), by=self.id
            )
            return Step(s.with_side(invader, back), (returned,))

        return self.offer(
            state,
            f"Parley: return the units committed to {name} to space?",
            play,
            facts={"planet": name},
        )
