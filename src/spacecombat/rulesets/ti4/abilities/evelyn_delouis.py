"""Evelyn Delouis (Sol agent): at the start of a ground-combat round, exhaust her: 1 ground
force in the combat rolls 1 additional die that round (ti4-combat-effects.md §4;
data/cards.toml). Offered through "play_card" in the "start of combat round" window of a
ground combat (ti4-ground-combat.md rule 4.1, note 1), one option per type of the holder's
ground forces there, the likeliest to hit first (docs/rulings.md 14D2-4); the agent
stays exhausted for the battle. The extra die is added to that unit's dice group for the round
(``combat_roll``)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.invasion_effects import offer_ways

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

START_OF_COMBAT_ROUND = "start_of_combat_round"


@register
class EvelynDelouis(Card):
    id = "evelyn_delouis"
    card = "evelyn_delouis"

    def _boost(self, unit: str) -> str:
        return f"{self.card}:{unit}"

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[str]
    ) -> Node[BattleState] | None:
        owner = self.owner
        if (
            owner is None
            or setup.kind != "invasion"
            or START_OF_COMBAT_ROUND not in windows
            or not self.held(state)
        ):
            return None
        from spacecombat.rulesets.ti4.procedures.common import combat_pool

        groups = combat_pool(setup, state, owner).groups
        if not groups:
            return None
        best_first = sorted(groups, key=lambda g: (g.hit_on, g.unit))
        ways = [(f"on {g.unit}", g.unit) for g in best_first]

        def play(s: BattleState, unit: str | None) -> Step[BattleState]:
            return Step(s.boosting(owner, self._boost(unit or "")))

        return offer_ways(
            owner, self.card, state, "Evelyn Delouis: 1 ground force rolls 1 more die?", ways, play
        )

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        if roller is not self.owner:
            return None
        return tuple(
            unit
            for unit in sorted(setup.side(roller).ground_force_types)
            if state.boosted(roller, self._boost(unit))
        )

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if roller is not self.owner:
            return groups
        return tuple(
            replace(g, dice=g.dice + 1) if state.boosted(roller, self._boost(g.unit)) else g
            for g in groups
        )
