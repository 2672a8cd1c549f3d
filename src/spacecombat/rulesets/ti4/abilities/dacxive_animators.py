"""Dacxive Animators (green technology): after you win a ground combat, you may place 1 infantry
from your reinforcements on that planet (ti4-combat-effects.md §1; data/technologies.toml).

Asked through "play_card" after each ground combat its owner wins, attacker or defender
(invasion.py ``ground_combat_ends``, ``after_ground_combat``; ti4-ground-combat.md rule 4.3:
the winner is the player with ground forces left). A passive technology: not exhausted.
The infantry is placed (``units_placed``). Reinforcements are not counted: one is taken to be
available (docs/rulings.md 14D2-5).

``after_ground_combat`` is declared as acting in the rounds (rulesets/ti4/hooks.py), so that
the combat rounds are not solved in product form: that form joins the ground combats of
several planets into one, and this handler must be asked after each of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Handler, register
from spacecombat.rulesets.ti4.abilities.invasion_effects import offer_ways, units_placed

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

INFANTRY = "infantry"


@register
class DacxiveAnimators(Handler):
    id = "dacxive_animators"
    battles = INVASION_ONLY  # asked after a ground combat (24AJ-1)
    card = "dacxive_animators"
    asks = card  # its play_card decisions (Handler.asks)

    def after_ground_combat(
        self, setup: BattleSetup, state: BattleState, winner: Side | None
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or winner is not owner:
            return None
        planet = state.planet
        name = setup.planets[planet]

        def play(s: BattleState, unit: str | None) -> Step[BattleState]:
            mine = s.side(owner)
            placed = mine.with_planet(planet, mine.planet(planet).add(INFANTRY))
            return Step(
                s.with_side(owner, placed),
                (units_placed(owner, INFANTRY, 1, name, self.id),),
            )

        return offer_ways(
            owner,
            self.card,
            state,
            "Dacxive Animators: place 1 infantry on the planet you won?",
            [("", None)],
            play,
            exhaust=False,
        )
