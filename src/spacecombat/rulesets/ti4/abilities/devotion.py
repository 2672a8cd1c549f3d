"""Devotion (Yin faction ability): after each round of space combat, you may destroy 1 of your
cruisers or destroyers in the active system to produce 1 hit, which you assign to one of your
opponent's ships there (ti4-combat-effects.md; data/factions.toml). Offered in the "end of
combat round" window of a space combat (ti4-space-combat.md rule 9.1) as one "play_card"
decision naming both ships ("play devotion: destroy UNIT, hit UNIT"); the stock policy gives
its cheapest ship (destroyers first) for the opponent's dearest (damaged first), but passes
when the ship given would be its last. The ship hit may cancel it with SUSTAIN DAMAGE
(docs/rulings.md 14B-1). It may act every round."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status, describe
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.effects import (
    aimed_hits,
    destroy_own,
    offer_choices,
    unit_value,
)
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

CAUSE = "Devotion"
SACRIFICES = ("destroyer", "cruiser")

Act = Callable[["BattleState"], Step["BattleState"]]


@register
class Devotion(Card):
    id = "devotion"
    card = "devotion"
    acts = Acts(frozenset({Window.END_OF_COMBAT_ROUND}), battles=frozenset({"space"}))
    #: it destroys one of its owner's cruisers or destroyers (of which nothing gives more) to
    #: take a hit point from the other side: it places nothing (docs/rulings.md 24AC-3)
    never_stalls_where_all_hit = frozenset[str]()

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        space = state.side(owner).space
        cards = setup.side(owner)  # The Cavalry's ship is still a cruiser (14CV-2)
        mine = [(u, st) for kind in SACRIFICES for u, st, _ in space if cards.is_a(u, kind)]
        mine.sort(key=lambda given: given[0] not in SACRIFICES)  # The Cavalry's ship last
        victim = owner.other
        ships = setup.side(victim).ship_types
        targets = sorted(
            ((u, st) for u, st, _ in state.side(victim).space if u in ships),
            key=lambda t: (-unit_value(setup, victim, t[0]), t[1] is Status.UNDAMAGED, t[0]),
        )
        if not mine or not targets:
            return None

        def choice(given: tuple[str, Status], hit: tuple[str, Status]) -> tuple[str, Act]:
            def act(s: BattleState) -> Step[BattleState]:
                gone = destroy_own(s, owner, *given, CAUSE)
                aimed = aimed_hits(gone.state, victim, 1, CAUSE, unit=hit)
                return Step(aimed, gone.events)

            return f"destroy {describe(*given)}, hit {describe(*hit)}", act

        last = space.total(cards.ship_types.__contains__) == 1
        return offer_choices(
            self,
            state,
            "Devotion: destroy a cruiser or destroyer to hit an enemy ship of your choice?",
            [choice(given, hit) for given in mine for hit in targets],
            once=False,
            pass_first=last,
        )
