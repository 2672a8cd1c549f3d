"""Nomad mech (Quantum Manipulator): while in a space area during combat, it may use its
SUSTAIN DAMAGE to cancel a hit produced against your ships in its system (data/units.toml;
ti4-combat-effects.md, mechs). When the owner assigns the hits of a space combat round
(ti4-space-combat.md step 4.1), each undamaged mech of theirs in the space area is offered as
"sustain mech" besides their ships; it can never be destroyed by those hits. Not against space
cannon offense (before the combat) nor anti-fighter barrage hits (which no unit may sustain:
docs/rulings.md R4) (docs/rulings.md 14A-9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

MECH = frozenset({"mech"})


@register
class NomadMechSustainForShips(Handler):
    id = "nomad_mech_sustain_for_ships"
    #: reads the owner's own units alone (product form kept)
    keeps_product_form = frozenset({"lends_sustain"})

    def lends_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None
    ) -> frozenset[str]:
        if side is not self.owner or where is not None or state.phase is not Phase.ASSIGN_HITS:
            return frozenset()
        return MECH
