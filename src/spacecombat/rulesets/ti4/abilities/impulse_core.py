"""Impulse Core (Yin technology): at the start of a space combat, its owner may destroy 1 of
their cruisers or destroyers in the active system to produce 1 hit, which the opponent must
assign to one of their non-fighter ships if they can (ti4-combat-effects.md;
data/technologies.toml). Offered in the "start of combat" window (ti4-space-combat.md rule 2.1)
as one "play_card" decision naming the ship destroyed ("play impulse_core: destroy UNIT",
destroyers first); the stock policy uses it, cheapest ship first, unless that ship is its
owner's last (then it passes). The hit may be cancelled by SUSTAIN DAMAGE
(docs/rulings.md 14B-1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status, describe
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.effects import aimed_hits, destroy_own, offer_choices
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

CAUSE = "Impulse Core"
SACRIFICES = ("destroyer", "cruiser")


@register
class ImpulseCore(Card):
    id = "impulse_core"
    #: acts at the start of combat, before the first round's dice (product form kept)
    keeps_product_form = frozenset({"in_window"})
    card = "impulse_core"
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"space"}), held=True)

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        space = state.side(owner).space
        cards = setup.side(owner)  # The Cavalry's ship is still a cruiser (14CV-2)
        mine = [(u, st) for kind in SACRIFICES for u, st, _ in space if cards.is_a(u, kind)]
        mine.sort(key=lambda given: given[0] not in SACRIFICES)  # The Cavalry's ship last
        if not mine:
            return None
        victim = owner.other

        def sacrifice(
            unit: str, status: Status
        ) -> tuple[str, Callable[[BattleState], Step[BattleState]]]:
            def act(s: BattleState) -> Step[BattleState]:
                gone = destroy_own(s, owner, unit, status, CAUSE)
                return Step(aimed_hits(gone.state, victim, 1, CAUSE, non_fighter=True), gone.events)

            return f"destroy {describe(unit, status)}", act

        last = space.total(cards.ship_types.__contains__) == 1
        return offer_choices(
            self,
            state,
            "Impulse Core: destroy a cruiser or destroyer to produce 1 hit?",
            [sacrifice(u, st) for u, st in mine],
            pass_first=last,
        )
