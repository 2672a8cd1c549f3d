"""Fire Team (action card): after your ground forces make combat rolls, reroll any number of
those dice (ti4-combat-effects.md §6; data/cards.toml). Once, in a ground combat
(ti4-ground-combat.md step 1). The holder decides before the roll (the one door for choices is
a decision node, and a roll's outcome here is its number of hits, not its faces): offered in
the "start of combat round" window of a ground combat (rule 4.1), played, it makes that round's
combat roll reroll every die of the holder that missed (``DiceGroup.reroll``), which is what a
player who sees the faces does with it. If every die then hits, the card is spent all the same
(docs/rulings.md 14C-9). The stock policy plays it in the first round."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Acts, Card, register
from spacecombat.rulesets.ti4.abilities.round_boost import RerollsThisRound, rolls_stopped
from spacecombat.rulesets.ti4.effects import combat_dice
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class FireTeam(RerollsThisRound, Card):
    id = "fire_team"
    battles = INVASION_ONLY  # its rerolls follow a play in a ground combat round (24AJ-1)
    card = "fire_team"
    #: the rerolls follow a "play" only (the round's boost): it acts only once played
    played_as = card
    reroller = "Fire Team"
    acts = Acts(
        frozenset({Window.START_OF_COMBAT_ROUND}), battles=frozenset({"invasion"}), held=True
    )

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if not combat_dice(setup, state, owner):
            return None

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s.boosting(owner, self.card))

        return self.offer(
            state,
            "Fire Team: reroll your ground combat dice that miss this round?",
            play,
            pass_first=rolls_stopped(setup, state, owner),
        )
