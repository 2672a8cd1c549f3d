"""Mentak mech (Moll Terminus): other players' ground forces on its planet cannot use SUSTAIN
DAMAGE (data/units.toml; ti4-combat-effects.md, mechs). It acts while one of the Mentak's mechs
is on the planet where the opponent's ground forces are assigned hits: in ground combat, and
against space cannon defense hits on ground forces committed to a planet the Mentak's mech
defends (docs/rulings-drafts/A.md 14A-2). Bombardment hits fall before the invader's ground
forces land, so an invading Mentak mech is not yet on the planet then. As for the Mentak
flagship, a mech there when an Assign Hits step begins forbids SUSTAIN DAMAGE for the whole
step (14A-1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

MECH = "mech"


@register
class MentakMechNoEnemySustain(ActsOnHits):
    id = "mentak_mech_no_enemy_sustain"

    def forbids_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, unit: str
    ) -> bool:
        owner = self.owner
        if owner is None or side is owner or where is None:
            return False
        if unit not in setup.side(side).ground_force_types:
            return False
        if state.side(owner).planet(where).count(MECH):
            return True
        # Destroyed by the owner's own assignment earlier in this Assign Hits step: it was
        # there when the step began, when SUSTAIN DAMAGE is used (14A-1).
        return state.phase is Phase.ASSIGN_HITS and state.boosted(owner, self.id)

    def before_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        """Before the owner assigns hits in a combat round (the attacker assigns first): note
        that it is there at the start of the step, for the opponent's assignment after."""
        owner = self.owner
        if side is not owner or state.phase is not Phase.ASSIGN_HITS or where is None:
            return None
        if state.boosted(owner, self.id) or not state.side(owner).planet(where).count(MECH):
            return None
        return Step(state.boosting(owner, self.id))
