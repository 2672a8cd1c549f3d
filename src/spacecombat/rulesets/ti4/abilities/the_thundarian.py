"""The Thundarian (Nomad agent): after the Roll Dice step of a combat round, exhaust it: the
hits of that step are not assigned, and the step is repeated (both players roll again)
(ti4-combat-effects.md; data/cards.toml). Offered in the "after roll dice" window
(procedures/windows.py; ti4-space-combat.md step 3, ti4-ground-combat.md step 1) of a space or
ground combat round when some hit was produced, as "play the_thundarian: reroll"; the stock
policy uses it only when more hits were produced against its holder than against the opponent
(otherwise "pass" is listed first; docs/rulings.md 14B-5). Once per battle."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.effects import offer_choices
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class TheThundarian(Card):
    id = "the_thundarian"
    card = "the_thundarian"
    acts = Acts(frozenset({Window.AFTER_ROLL_DICE}), held=True)

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if not any(state.hits):
            return None

        def reroll(s: BattleState) -> Step[BattleState]:
            return Step(s.changed(hits=(0, 0), turn=Side.ATTACKER, then=Phase.ROLL_DICE))

        behind = state.hits_on(owner) > state.hits_on(owner.other)
        return offer_choices(
            self,
            state,
            "The Thundarian: discard the hits of this Roll Dice step and roll again?",
            [("reroll", reroll)],
            pass_first=not behind,
        )
