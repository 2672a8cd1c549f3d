"""Rout (action card): at the start of the Announce Retreats step, if you are the defender,
your opponent must announce a retreat this round, if able (ti4-combat-effects.md;
data/cards.toml). Offered to the defender in the "announce_retreats" window that opens at the
start of that step (ti4-space-combat.md step 2; procedures/space_combat.py) when the attacker
has an eligible system (step 2.3), so that it can change something; the attacker's
announcement is then forced (``retreat_announced`` with ``forced`` and reason "Rout"). The
stock policy plays it at the first chance (``policy.play`` may name a round or say never)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.effects import eligible_systems
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Mark

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class Rout(Card):
    id = "rout"
    card = "rout"
    acts = Acts(
        frozenset({Window.ANNOUNCE_RETREATS}), players=frozenset({Side.DEFENDER}), held=True
    )
    #: it forces a retreat only, which ends the combat or leaves it as it was (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if not eligible_systems(setup, Side.ATTACKER):
            return None

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s.marking(owner, Mark.ROUTED))

        return self.offer(state, "Rout: your opponent must announce a retreat this round?", play)
