"""Assimilate (L1Z1X Mindnet faction ability): when you gain control of a planet, its PDS and
space docks are replaced by matching units of yours instead of being destroyed
(ti4-combat-effects.md §3; data/factions.toml).

It acts in the invasion's last step, Establish Control (ti4-ground-combat.md step 5;
``procedures/invasion.establish_control``, hook ``takes_structures``): the defender loses its
structures on the planets the L1Z1X invader takes as always, and they stand on those planets as
the L1Z1X player's (undamaged: the matching units come from the reinforcements; the
reinforcements' limits are not tracked, docs/rulings.md 14D2-5). Only an attacking L1Z1X
player gains control in a battle, so the ability never acts for a defender."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Handler, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class Assimilate(Handler):
    id = "assimilate"
    battles = INVASION_ONLY  # its hook is asked at Establish Control alone (24AJ-1)

    def takes_structures(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        return side is self.owner
