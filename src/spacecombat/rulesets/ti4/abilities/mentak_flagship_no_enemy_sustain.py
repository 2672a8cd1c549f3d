"""Mentak flagship (Fourth Moon): other players' ships in its system cannot use SUSTAIN DAMAGE
(data/units.toml; ti4-combat-effects.md, flagships). It acts while the flagship is in the
system's space area, against every hit assigned to the opponent's ships there (space cannon
offense, combat rounds): once the flagship is destroyed, the opponent's ships may sustain
damage again. SUSTAIN DAMAGE is used before hits are assigned (ti4-space-combat.md step 4.1),
so a flagship in the system when an Assign Hits step begins forbids it for the whole step,
even when the owner's own assignment, made first, destroys it (docs/rulings-drafts/A.md
14A-1): the owner notes it (the round's ``boosts``) before assigning."""

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

FLAGSHIP = "flagship"


@register
class MentakFlagshipNoEnemySustain(ActsOnHits):
    id = "mentak_flagship_no_enemy_sustain"

    def forbids_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, unit: str
    ) -> bool:
        owner = self.owner
        if owner is None or side is owner or where is not None:
            return False
        if unit not in setup.side(side).ship_types:
            return False
        if state.side(owner).space.count(FLAGSHIP):
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
        if side is not owner or state.phase is not Phase.ASSIGN_HITS or where is not None:
            return None
        if state.boosted(owner, self.id) or not state.side(owner).space.count(FLAGSHIP):
            return None
        return Step(state.boosting(owner, self.id))
