"""Maneuvering Jets (action card): before you assign hits produced against your units by SPACE
CANNON, cancel 1 hit (ti4-combat-effects.md §7; data/cards.toml). Offered to the player hit,
before it assigns the hits of a space cannon roll (``before_assign_hits``, asked by
procedures/assign_hits.py): space cannon offense (procedures/space_cannon_offense.py) and
space cannon defense (procedures/invasion.py), told apart by the hits' cause. The stock policy
plays it on the first such roll with a hit; it is played once a battle (one card).

Space cannon is rolled before the combat rounds (ti4-space-combat.md: the space combat follows
the Space Cannon Offense step; ti4-ground-combat.md note 3: ground combats follow Space Cannon
Defense on all planets),
so during the rounds the card is offered nothing and the rounds keep their product form
(``keeps_product_form``; the real Assign Hits procedure still asks it at every assignment)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Card, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: the causes of space cannon hits (procedures/space_cannon_offense.py, invasion.py)
CAUSES = frozenset({"space cannon offense", "space cannon defense"})


@register
class ManeuveringJets(Card):
    id = "maneuvering_jets"
    card = "maneuvering_jets"
    keeps_product_form = frozenset({"before_assign_hits"})
    assigns_for = CAUSES

    def before_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        owner = self.owner
        hits = state.hits_on(side)
        if side is not owner or cause not in CAUSES or not hits or not self.held(state):
            return None

        def play(s: BattleState) -> Step[BattleState]:
            cancelled = event(
                "hits_cancelled", player=side.value, by=self.card, cause=cause, hits=1
            )
            return Step(s.with_hits_on(side, s.hits_on(side) - 1), (cancelled,))

        return self.offer(
            state,
            f"Maneuvering Jets: cancel 1 of the {hits} space cannon hits against you?",
            play,
            facts={"hits": hits},
        )
