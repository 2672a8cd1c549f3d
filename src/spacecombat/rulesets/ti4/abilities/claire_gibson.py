"""Claire Gibson (Sol commander): at the start of a ground combat on a planet you control, you
may place 1 infantry from your reinforcements on that planet (ti4-combat-effects.md §4;
data/cards.toml). Only the defender controls the invaded planets. Offered through "play_card"
in the "start of combat" window of each ground combat (ti4-ground-combat.md rule 4.1, note 1):
a commander is not exhausted, so it acts at every planet's combat. The infantry joins the
combat (the ``units_placed`` event). Reinforcements are not counted by the scenario: one
infantry is taken to be available (docs/rulings.md 14D2-5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Acts, Handler, register
from spacecombat.rulesets.ti4.abilities.invasion_effects import offer_ways, units_placed
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

INFANTRY = "infantry"


@register
class ClaireGibson(Handler):
    id = "claire_gibson"
    battles = INVASION_ONLY  # offered at the start of a ground combat (24AJ-1)
    #: acts at the start of combat, before the first round's dice (product form kept)
    keeps_product_form = frozenset({"in_window"})
    card = "claire_gibson"
    asks = card  # its play_card decisions (Handler.asks)
    acts = Acts(
        frozenset({Window.START_OF_COMBAT}),
        battles=frozenset({"invasion"}),
        players=frozenset({Side.DEFENDER}),
    )

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        planet = state.planet

        def play(s: BattleState, unit: str | None) -> Step[BattleState]:
            mine = s.side(owner)
            placed = mine.with_planet(planet, mine.planet(planet).add(INFANTRY))
            return Step(
                s.with_side(owner, placed),
                (units_placed(owner, INFANTRY, 1, setup.planets[planet], self.id),),
            )

        return offer_ways(
            owner,
            self.card,
            state,
            "Claire Gibson: place 1 infantry on the planet?",
            [("", None)],
            play,
            exhaust=False,
        )
