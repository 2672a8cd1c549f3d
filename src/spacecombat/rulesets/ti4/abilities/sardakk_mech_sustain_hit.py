"""Sardakk mech (Valkyrie Exoskeleton): after it uses SUSTAIN DAMAGE during ground combat, it
produces 1 hit against the opponent's ground forces on that planet (data/units.toml;
ti4-combat-effects.md, mechs). It acts after each SUSTAIN DAMAGE of one of the owner's mechs in
a ground combat round (ti4-ground-combat.md step 2; not against space cannon defense or
bombardment hits, which fall outside ground combat); the hit joins those the opponent has still
to assign, or, when the opponent (the attacker) has already assigned, it assigns it when the
owner is done (procedures/assign_hits.py). It is not optional: no decision."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

MECH = "mech"


@register
class SardakkMechSustainHit(ActsOnHits):
    id = "sardakk_mech_sustain_hit"

    def after_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        if side is not self.owner or where is None or state.phase is not Phase.ASSIGN_HITS:
            return None
        if state.sustained[-1] != MECH:
            return None
        opponent = side.other
        produced = event(
            "hits_produced", player=side.value, hits=1, against=opponent.value, by=self.id
        )
        return Step(state.with_hits_on(opponent, state.hits_on(opponent) + 1), (produced,))
