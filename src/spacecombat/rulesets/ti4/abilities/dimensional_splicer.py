"""Dimensional Splicer (Creuss technology): at the start of a space combat in a system with a
wormhole and at least one of its owner's ships, the owner may produce 1 hit and choose which of
the opponent's ships takes it (ti4-combat-effects.md; data/technologies.toml). Offered in the
"start of combat" window (ti4-space-combat.md rule 2.1) when the system contains a wormhole (the
scenario's ``system.wormholes``, or a Creuss flagship in its space area then:
abilities/creuss_flagship_delta_wormhole.py), as one "play_card" decision naming the ship hit ("play
dimensional_splicer: hit UNIT"); the stock policy hits the dearest ship, a damaged one first.
The ship's owner may still cancel the hit with that ship's SUSTAIN DAMAGE
(docs/rulings.md 14B-1) or with Tellurian, and Direct Hit and Reflective Shielding answer that
SUSTAIN DAMAGE; Shields Holding does not apply: its holder does not assign the hit (14H-1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status, describe
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.abilities.creuss_flagship_delta_wormhole import wormhole_in_system
from spacecombat.rulesets.ti4.effects import aimed_hits, offer_choices, unit_value
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

CAUSE = "Dimensional Splicer"


@register
class DimensionalSplicer(Card):
    id = "dimensional_splicer"
    #: acts at the start of combat, before the first round's dice (product form kept)
    keeps_product_form = frozenset({"in_window"})
    card = "dimensional_splicer"
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"space"}), held=True)

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if not wormhole_in_system(setup, state):
            return None
        victim = owner.other
        ships = setup.side(victim).ship_types
        targets = sorted(
            ((u, st) for u, st, _ in state.side(victim).space if u in ships),
            key=lambda t: (-unit_value(setup, victim, t[0]), t[1] is Status.UNDAMAGED, t[0]),
        )
        if not targets or not state.side(owner).space.total(
            setup.side(owner).ship_types.__contains__
        ):
            return None

        def hit(
            unit: str, status: Status
        ) -> tuple[str, Callable[[BattleState], Step[BattleState]]]:
            def act(s: BattleState) -> Step[BattleState]:
                return Step(aimed_hits(s, victim, 1, CAUSE, unit=(unit, status)))

            return f"hit {describe(unit, status)}", act

        return offer_choices(
            self,
            state,
            "Dimensional Splicer: produce 1 hit on an enemy ship of your choice?",
            [hit(u, st) for u, st in targets],
        )
