"""Viscount Unlenn (Letnev agent): at the start of a space combat round, exhaust to choose 1 ship
in the active system: it rolls 1 additional combat die this round (ti4-combat-effects.md;
data/cards.toml). Offered in the "start of combat round" window of a space combat
(ti4-space-combat.md rule 2.1) as one "play_card" decision naming the holder's ship type
("play viscount_unlenn: UNIT", best combat value first, which the stock policy takes); the die
is added to that type's dice for the round (the round's ``boosts``). Exhausted, it stays so for
the battle. Choosing an opponent's ship is legal but never helps its holder: not offered
(docs/rulings.md 14B-3)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

START_OF_COMBAT_ROUND = "start_of_combat_round"


@register
class ViscountUnlenn(Card):
    id = "viscount_unlenn"
    card = "viscount_unlenn"

    def _effect(self, unit: str) -> str:
        return f"{self.card}:{unit}"

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[str]
    ) -> Node[BattleState] | None:
        owner = self.owner
        if (
            owner is None
            or setup.kind != "space"
            or START_OF_COMBAT_ROUND not in windows
            or not self.held(state)
        ):
            return None
        from spacecombat.rulesets.ti4.procedures.common import combat_pool

        groups = combat_pool(setup, state, owner).groups
        if not groups:
            return None
        best = sorted(groups, key=lambda g: (g.hit_on, g.unit))

        def extra(unit: str) -> tuple[str, Callable[[BattleState], Step[BattleState]]]:
            def act(s: BattleState) -> Step[BattleState]:
                return Step(s.boosting(owner, self._effect(unit)))

            return unit, act

        from spacecombat.rulesets.ti4.procedures.windows import offer_choices

        return offer_choices(
            self,
            state,
            "Viscount Unlenn: exhaust for 1 additional die for one of your ships this round?",
            [extra(g.unit) for g in best],
        )

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        if roller is not self.owner:
            return None
        boosts = state.boosts[0] if roller is Side.ATTACKER else state.boosts[1]
        prefix = f"{self.card}:"
        return frozenset(e for e in boosts if e.startswith(prefix))

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
            replace(g, dice=g.dice + 1) if state.boosted(roller, self._effect(g.unit)) else g
            for g in groups
        )
