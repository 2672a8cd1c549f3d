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
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.effects import offer_choices
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

AFTER_ROLL_DICE = "after_roll_dice"


@register
class TheThundarian(Card):
    id = "the_thundarian"
    card = "the_thundarian"

    def acts_after_roll_dice(self) -> bool:
        return True

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[str]
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or AFTER_ROLL_DICE not in windows or not self.held(state):
            return None
        if not any(state.hits):
            return None  # nothing to discard: a repeated roll is the same step again

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
