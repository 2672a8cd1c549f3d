"""Rear Admiral Farran (Letnev commander): after one or more of your units use SUSTAIN DAMAGE,
gain 1 trade good (data/cards.toml; ti4-combat-effects.md, leaders). Held (unlocked) by its
player, it acts once for each assignment of hits (ti4-space-combat.md step 4;
ti4-ground-combat.md step 2; space cannon, bombardment) in which at least one of the player's
units sustains damage, however many do ("one or more": docs/rulings.md 14A-5). The
trade good goes to the player's purse, for the effects that spend trade goods. A commander is
not exhausted: no ``card_played`` event."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class RearAdmiralFarran(ActsOnHits):
    id = "rear_admiral_farran"
    #: it gives its owner a trade good only (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """It acts on its owner's assignment only: while the opponent assigns it answers
        ``None`` (``Handler.idle_while_assigning``)."""
        return side is not self.owner

    def after_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        if side is not self.owner or len(state.sustained) != 1:
            return None  # not the owner's, or not the first SUSTAIN DAMAGE of the assignment
        trade_goods, influence = state.wealth(side)
        mine = (trade_goods + 1, influence)
        a, d = state.purse
        purse = (mine, d) if side is Side.ATTACKER else (a, mine)
        gained = event(
            "trade_goods_gained", player=side.value, trade_goods=1, by="rear_admiral_farran"
        )
        return Step(state.changed(purse=purse), (gained,))
