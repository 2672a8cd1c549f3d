"""Letnev mech (Dunlain Reaper) DEPLOY: at the start of a round of ground combat, you may spend 2
resources to replace 1 of your infantry in that combat with 1 mech (ti4-combat-effects.md §3;
data/units.toml). The scenario's only resources are trade goods (a trade good may be spent as
one resource; planets to exhaust are not modelled), so it costs 2 trade goods.

Offered through "play_card" in the "start of combat round" window of every ground-combat round
(ti4-ground-combat.md rule 4.1, note 1) when the owner has an infantry on the planet and 2
trade goods; a DEPLOY ability is not exhausted. The trade goods are spent
(``trade_goods_spent``), the infantry is removed (``unit_removed``) and an undamaged mech
placed (``units_placed``). Only while a mech is in the owner's reinforcements: 4 mechs in
all, less those in this battle (reinforcements.py; docs/rulings.md 27T-5, amending 14D2-5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Acts, Handler, register
from spacecombat.rulesets.ti4.abilities.invasion_effects import offer_ways, units_placed
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.reinforcements import in_reinforcements

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

INFANTRY, MECH = "infantry", "mech"
#: resources (trade goods) it costs
COST = 2


@register
class LetnevMechDeploy(Handler):
    id = "letnev_mech_deploy"
    battles = INVASION_ONLY  # offered at the start of a ground combat round (24AJ-1)
    card = "letnev_mech_deploy"
    asks = card  # its play_card decisions (Handler.asks)
    acts = Acts(frozenset({Window.START_OF_COMBAT_ROUND}), battles=frozenset({"invasion"}))

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        planet = state.planet
        if state.wealth(owner)[0] < COST:
            return None
        if not state.side(owner).planet(planet).count(INFANTRY, Status.UNDAMAGED):
            return None
        if in_reinforcements(setup, state, owner, MECH) == 0:
            return None  # DEPLOY needs a mech in reinforcements (4 in all: 27T-5)
        name = setup.planets[planet]

        def play(s: BattleState, unit: str | None) -> Step[BattleState]:
            mine = s.side(owner)
            here = mine.planet(planet).remove(INFANTRY, Status.UNDAMAGED).add(MECH)
            return Step(
                s.spending(owner, trade_goods=COST).with_side(
                    owner, mine.with_planet(planet, here)
                ),
                (
                    event(
                        "trade_goods_spent",
                        player=owner.value,
                        trade_goods=COST,
                        by=self.id,
                        round=s.round,
                    ),
                    event(
                        "unit_removed",
                        player=owner.value,
                        unit=INFANTRY,
                        reason="replaced by a Dunlain Reaper (DEPLOY)",
                    ),
                    units_placed(owner, MECH, 1, name, self.id),
                ),
            )

        return offer_ways(
            owner,
            self.card,
            state,
            "Dunlain Reaper: spend 2 trade goods to replace 1 infantry with a mech?",
            [("", None)],
            play,
            exhaust=False,
        )
