"""Bunker (action card): at the start of an invasion of your planets, -4 to every BOMBARDMENT
roll against them for the rest of that invasion (ti4-combat-effects.md §6; data/cards.toml).
Only the defender controls the invaded planets, so only its Bunker acts; it is offered at the
start of the invasion (invasion.py ``bombardment``, ``at_invasion_start``) when some planet
with its ground forces will be bombarded (no law forbids it, no shield stops it, the attacker
has dice for it), and lowers each die of the attacker's bombardment
(``bombardment_roll``) once played."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Card, register
from spacecombat.rulesets.ti4.abilities.bombardment import bombardment_dice, bombardment_forbidden
from spacecombat.rulesets.ti4.abilities.planetary_shield import stops_bombardment
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

#: what Bunker adds to each BOMBARDMENT die against the holder's planets
BUNKER = -4


@register
class Bunker(Card):
    id = "bunker"
    battles = (
        INVASION_ONLY  # played at the start of an invasion; its hook lowers a bombardment (24AJ-1)
    )
    card = "bunker"

    def at_invasion_start(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        if self.owner is not Side.DEFENDER or not self.held(state):
            return None
        attacker = Side.ATTACKER
        if not any(
            ground_forces(setup, state, self.owner, p)
            and bombardment_forbidden(setup, p) is None
            and not stops_bombardment(setup, state, self.owner, p)
            and bombardment_dice(setup, state, attacker, p, setup.bombarded_by[p]).groups
            for p in range(len(setup.planets))
        ):
            return None  # nothing will be bombarded: it would change nothing
        return self.offer(state, "Bunker: -4 to every BOMBARDMENT roll against your planets?", Step)

    def bombardment_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        planet: int,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        owner = self.owner
        if owner is None or roller is owner or not state.has_used(owner, self.card):
            return groups
        return tuple(replace(g, modifier=g.modifier + BUNKER) for g in groups)
