"""Magen Defense Grid (red technology): at the start of a round of ground combat on a planet
holding one or more of your units with PLANETARY SHIELD, you may exhaust this card: your
opponent makes no combat rolls that round (ti4-combat-effects.md §1; data/technologies.toml).

Offered through the "play_card" decision in the "start of combat round" window of a ground
combat (ti4-ground-combat.md rule 4.1, note 1) when the owner has such a unit on the planet
(a war sun's or Disable's loss of the shield counts: planetary_shield.py
``has_planetary_shield``) and the opponent has dice to roll. Exhausted, it stays so for the
rest of the battle (a technology readies only in the status phase). The opponent's combat roll
that round has no dice (``combat_roll``). While it is still to be offered in the window, the
opponent's stock policy does not play a card whose effect is on its combat roll that round
(``round_boost.StopsRolls``; docs/rulings.md 27T-2)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Acts, Card, register
from spacecombat.rulesets.ti4.abilities.planetary_shield import has_planetary_shield
from spacecombat.rulesets.ti4.abilities.round_boost import StopsRolls, stock_plays
from spacecombat.rulesets.ti4.effects import combat_dice
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState


@register
class MagenDefenseGrid(StopsRolls, Card):
    id = "magen_defense_grid"
    battles = INVASION_ONLY  # its stopped rolls follow a play in a ground combat round (24AJ-1)
    card = "magen_defense_grid"
    acts = Acts(
        frozenset({Window.START_OF_COMBAT_ROUND}), battles=frozenset({"invasion"}), held=True
    )

    def _offered(self, setup: BattleSetup, state: BattleState) -> bool:
        """Whether it is offered in this window (its owner holds it, the ground combat's
        planet holds a unit of theirs with PLANETARY SHIELD, the opponent has dice)."""
        owner = self.player
        return (
            setup.kind == "invasion"
            and self.held(state)
            and has_planetary_shield(setup, state, owner, state.planet)
            and combat_dice(setup, state, owner.other) > 0
        )

    def will_stop_rolls(self, setup: BattleSetup, state: BattleState) -> bool:
        return self._offered(setup, state) and stock_plays(setup, state, self.player, self.card)

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if not has_planetary_shield(setup, state, owner, state.planet):
            return None
        if not combat_dice(setup, state, owner.other):
            return None

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s.boosting(owner, self.card))

        return self.offer(
            state, "Magen Defense Grid: exhaust it, so that your opponent rolls no dice?", play
        )

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        owner = self.owner
        return owner is not None and roller is owner.other and state.boosted(owner, self.card)

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        owner = self.owner
        if owner is None or roller is not owner.other or not state.boosted(owner, self.card):
            return groups
        return ()
