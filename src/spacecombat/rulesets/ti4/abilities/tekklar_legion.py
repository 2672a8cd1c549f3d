"""Tekklar Legion (Sardakk N'orr promissory note): at the start of an invasion combat (a ground
combat), its holder may play it: +1 to the holder's combat rolls in that ground combat and, if
the opponent is the Sardakk N'orr player, -1 to the opponent's combat rolls in it
(ti4-combat-effects.md, promissory notes; data/cards.toml). Played in the "start of combat"
window of a ground combat (ti4-ground-combat.md rule 4.1), once (the note then returns to its
owner); it lasts for that ground combat only, on that planet (docs/rulings.md 14C-4).
The Sardakk player never plays their own note. The stock policy plays it in the first ground
combat."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Acts, Card, register
from spacecombat.rulesets.ti4.effects import combat_dice
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

SARDAKK = "sardakk"


@register
class TekklarLegion(Card):
    id = "tekklar_legion"
    battles = (
        INVASION_ONLY  # its dice change only once played at the start of a ground combat (24AJ-1)
    )
    card = "tekklar_legion"
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"invasion"}), held=True)

    def _played_on(self, planet: int) -> str:
        """What the state records for the ground combat on ``planet`` it was played in."""
        return f"{self.card}@{planet}"

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if setup.side(owner).faction == SARDAKK:
            return None
        if not combat_dice(setup, state, owner):
            return None
        planet = state.planet

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s.using(owner, self._played_on(planet)))

        return self.offer(
            state, "Tekklar Legion: +1 to your combat rolls in this ground combat?", play
        )

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        if self.owner is None or setup.kind == "space":
            return False
        return state.has_used(self.owner, self._played_on(state.planet))

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        if not self.roll_key(setup, state, roller):
            return groups
        if roller is self.owner:
            change = 1
        elif setup.side(roller).faction == SARDAKK:
            change = -1
        else:
            return groups
        return tuple(replace(g, modifier=g.modifier + change) for g in groups)
