"""Infiltrate (action card): when you gain control of a planet, replace each PDS and space dock
on it with a matching unit from your reinforcements, instead of those units being destroyed
(ti4-combat-effects.md §6; data/cards.toml).

Played by the attacker at Establish Control (ti4-ground-combat.md step 5;
``procedures/invasion.establish_control``: ``before_establishing_control`` offers it, and
``takes_structures`` then says the structures are taken), and only when it would take
something: a planet the attacker is about to control holds a structure of the defender. One
card serves every planet controlled in that step (they are gained at the same moment)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Card, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class Infiltrate(Card):
    id = "infiltrate"
    battles = INVASION_ONLY  # played at Establish Control (24AJ-1)
    card = "infiltrate"

    def before_establishing_control(
        self, setup: BattleSetup, state: BattleState
    ) -> Node[BattleState] | None:
        if self.owner is not Side.ATTACKER or not self.held(state):
            return None
        structure = setup.side(Side.DEFENDER).is_structure
        defender = state.defender
        worth = any(
            ground_forces(setup, state, Side.ATTACKER, p) and defender.planet(p).total(structure)
            for p in range(len(setup.planets))
        )
        if not worth:
            return None

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s)

        return self.offer(state, "Infiltrate: take the PDS and space docks of the planets?", play)

    def takes_structures(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        return side is self.owner and state.has_used(side, self.card)
