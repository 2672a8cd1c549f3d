"""Morale Boost (action card): at the start of a combat round, +1 to all of your combat rolls
that round (ti4-combat-effects.md §6; data/cards.toml). Played in the "start of combat round"
window of a space or ground combat (ti4-space-combat.md rule 2.1, ti4-ground-combat.md 4.1)
while its holder has units in the fight; the +1 lasts until the round ends (the round's
``boosts``). The stock policy plays it in the first round (``policy.play`` may say otherwise).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import Card, register

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: the window it is played in (procedures/windows.py)
START_OF_COMBAT_ROUND = "start_of_combat_round"


@register
class MoraleBoost(Card):
    id = "morale_boost"
    card = "morale_boost"

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[str]
    ) -> Node[BattleState] | None:
        owner = self.owner
        if owner is None or START_OF_COMBAT_ROUND not in windows or not self.held(state):
            return None
        from spacecombat.rulesets.ti4.procedures.common import combat_dice

        if not combat_dice(setup, state, owner):
            return None  # no dice to add to: it would change nothing

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s.boosting(owner, self.card))

        return self.offer(state, "Morale Boost: +1 to all your combat rolls this round?", play)

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        return state.boosted(roller, self.card)

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner or not state.boosted(roller, self.card):
            return groups
        return tuple(replace(g, modifier=g.modifier + 1) for g in groups)
