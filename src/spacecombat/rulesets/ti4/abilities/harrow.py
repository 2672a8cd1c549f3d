"""Harrow (L1Z1X faction ability): after each round of ground combat, your ships in the active
system may use their BOMBARDMENT against your opponent's units on that planet
(ti4-combat-effects.md §3; data/factions.toml).

Offered to the invader (the attacker: its ships are in the system) through "play_card" in the
"end of combat round" window of every round of a ground combat, the last one included
(ti4-ground-combat.md rule 4.2, note 2; a faction ability is not exhausted), when the
defender still has ground forces there and the bombardment could roll: the units are every
ship in the space area with BOMBARDMENT (not the step 1 allotment), and L1Z1X mechs in the
space area, which bombard "as if they were ships" (l1z1x_mech_bombardment.py;
docs/rulings.md 14D2-8). Played, the battle goes to the BOMBARDMENT step
(invasion.py ``bombardment``, ``bombards_in_combat``): the same roll as step 1, with the same
modifiers, planetary shields and laws; the defender assigns the hits; then the window goes
on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Acts, Handler, register
from spacecombat.rulesets.ti4.abilities.bombardment import bombardment_dice, bombardment_forbidden
from spacecombat.rulesets.ti4.abilities.invasion_effects import offer_ways
from spacecombat.rulesets.ti4.abilities.l1z1x_mech_bombardment import L1z1xMechBombardment
from spacecombat.rulesets.ti4.abilities.planetary_shield import stops_bombardment
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class Harrow(Handler):
    id = "harrow"
    battles = INVASION_ONLY  # offered after a round of ground combat (24AJ-1)
    card = "harrow"
    asks = card  # its play_card decisions (Handler.asks)
    acts = Acts(
        frozenset({Window.END_OF_COMBAT_ROUND}),
        battles=frozenset({"invasion"}),
        players=frozenset({Side.ATTACKER}),
    )

    def bombards_in_combat(self, setup: BattleSetup, state: BattleState) -> Mapping[str, int]:
        owner = self.owner
        if owner is None:
            return {}
        cards = setup.side(owner)
        mechs = any(
            isinstance(h, L1z1xMechBombardment) and h.owner is owner for h in setup.handlers
        )
        return {
            unit: count
            for unit, count in state.side(owner).space.by_type().items()
            if cards.is_ship(unit) or (mechs and cards.card(unit).type == "mech")
        }

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if not state.round:
            return None
        planet = state.planet
        if (
            not ground_forces(setup, state, owner.other, planet)
            or bombardment_forbidden(setup, planet) is not None
            or stops_bombardment(setup, state, owner.other, planet)
            or not bombardment_dice(
                setup, state, owner, planet, self.bombards_in_combat(setup, state)
            ).groups
        ):
            return None

        def play(s: BattleState, unit: str | None) -> Step[BattleState]:
            return Step(s.at(Phase.BOMBARDMENT))

        return offer_ways(
            owner,
            self.card,
            state,
            "Harrow: your ships bombard the planet again?",
            [("", None)],
            play,
            exhaust=False,
        )
