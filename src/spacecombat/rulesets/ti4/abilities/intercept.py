"""Intercept (action card): after your opponent announces a retreat, they cannot retreat this
round (ti4-combat-effects.md; data/cards.toml). Offered in the "retreat_announced" window,
right after the opponent's announcement in the Announce Retreats step (ti4-space-combat.md
step 2; procedures/space_combat.py); played, the announcement is cancelled
(``retreat_cancelled``) and that player cannot retreat this round; if it was the defender's,
the attacker still cannot announce one (step 2.2; docs/rulings.md 14B-10). The stock
policy plays it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Mark

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class Intercept(Card):
    id = "intercept"
    card = "intercept"
    acts = Acts(frozenset({Window.RETREAT_ANNOUNCED}), held=True)
    #: it stops a retreat only: the favoured side's hits go on being taken (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        victim = owner.other
        if not state.has_announced(victim):
            return None

        def play(s: BattleState) -> Step[BattleState]:
            a, d = s.announced
            pair = (False, d) if victim is Side.ATTACKER else (a, False)
            stopped = s.changed(announced=pair).marking(victim, Mark.INTERCEPTED)
            cancelled = event("retreat_cancelled", player=victim.value, reason="Intercept")
            return Step(stopped, (cancelled,))

        return self.offer(state, "Intercept: your opponent cannot retreat this round?", play)
