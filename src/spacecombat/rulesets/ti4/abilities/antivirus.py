"""Antivirus (Nekro promissory note): at the start of a combat, its holder may place it face up;
while it is, the Nekro cannot use Technological Singularity against that player. It is returned
when its holder activates a system with Nekro units, so it acts only for a defender against a
Nekro attacker (data/cards.toml; ti4-combat-effects.md §5; docs/rulings.md 14B3-7, 14T-5).

Offered in the "start of combat" window (ti4-space-combat.md rule 2.1, ti4-ground-combat.md
4.1; procedures/windows.py) to a defender holding it against the Nekro, when Technological
Singularity could change the battle from then on: it could offer something to gain, or it would
be refused by name (abilities/technological_singularity.py ``could_act``; docs/rulings.md
14T-5); otherwise it changes nothing. Placed, it stays face up for the whole battle
(``used``). The stock policy places it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.abilities.technological_singularity import (
    TechnologicalSingularity,
    could_act,
)
from spacecombat.rulesets.ti4.hooks import Window
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class Antivirus(Card):
    id = "antivirus"
    #: acts at the start of combat, before the first round's dice (product form kept)
    keeps_product_form = frozenset({"in_window"})
    card = "antivirus"
    acts = Acts(frozenset({Window.START_OF_COMBAT}), players=frozenset({Side.DEFENDER}), held=True)

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        nekro = owner.other
        singularity = any(
            isinstance(h, TechnologicalSingularity) and h.owner is nekro for h in setup.handlers
        )
        if not singularity or not could_act(setup, state, nekro):
            return None  # nothing to block: it would change nothing

        def play(s: BattleState) -> Step[BattleState]:
            return Step(s)  # face up: Technological Singularity reads it (``used``)

        return self.offer(
            state, "Antivirus: place it face up (no Technological Singularity against you)?", play
        )
