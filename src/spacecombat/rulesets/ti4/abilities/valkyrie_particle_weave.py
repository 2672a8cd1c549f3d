"""Valkyrie Particle Weave (Sardakk N'orr technology): after making combat rolls during a round
of ground combat, if your opponent produced 1 or more hits, you produce 1 additional hit
(ti4-combat-effects.md §2; data/technologies.toml).

It acts in the "after roll dice" window of a ground-combat round (both players have rolled,
no hit is assigned yet: procedures/combat_round.py ``roll_dice``, ``acts_after_roll_dice``;
ti4-ground-combat.md steps 1 and 2): if hits are waiting against its owner, one more waits
against the opponent, assigned with the round's hits (``hits_produced``). Not optional: the
card says "you produce"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Acts, Handler, register
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class ValkyrieParticleWeave(Handler):
    id = "valkyrie_particle_weave"
    battles = INVASION_ONLY  # asked after a ground combat round's rolls (24AJ-1)
    acts = Acts(frozenset({Window.AFTER_ROLL_DICE}), battles=frozenset({"invasion"}))

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if not state.hits_on(owner):
            return None
        opponent = owner.other
        produced = event(
            "hits_produced", player=owner.value, hits=1, against=opponent.value, by=self.id
        )
        return Step(state.with_hits_on(opponent, state.hits_on(opponent) + 1), (produced,))
