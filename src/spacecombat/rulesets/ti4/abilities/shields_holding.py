"""Shields Holding (action card): before you assign hits to your ships during a space combat,
cancel up to 2 of those hits (data/cards.toml; ti4-combat-effects.md, action cards). It is
offered to its holder before they assign the hits of a space combat round (ti4-space-combat.md
step 4), of anti-fighter barrage (step 1: part of the space combat; only fighters take those
hits, and fighters are ships; any ship with Waylay) or produced in a timing window of the
combat that the holder assigns (Ambush, Impulse Core: rule 2.1), while one of their ships
could take them; not against hits the producer placed on a ship (Dimensional Splicer,
Devotion), nor against space cannon offense, which comes before the space combat
(docs/rulings.md 14A-4, 14H-1). Played,
it cancels 2 hits, or the only one there is (14A-4). The stock policy plays it the first time
it is offered (``policy.play`` may say ``never`` or name the round)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.effects import chosen_by_producer
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: hits it cancels at most
CANCELS = 2


@register
class ShieldsHolding(ActsOnHits, Card):
    id = "shields_holding"
    card = "shields_holding"
    #: offered before its holder assigns hits, "pass" changes nothing, and the hits are
    #: cancelled after a "play" only: it acts only once played (24B-1, 24U-4)
    played_as = card
    #: it cancels hits against its owner's ships only, as Duranium Armor repairs (24AF-2)
    never_stalls_for_owner = True

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """Its hooks of hit assignment act on its holder's assignment only, and only while the
        card is held (not yet played, nor cancelled): else they answer ``None``
        (``Handler.idle_while_assigning``)."""
        return side is not self.owner or not self.held(state)

    def before_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        owner = self.owner
        if side is not owner or where is not None or not self.held(state):
            return None
        cards = setup.side(side)
        if state.phase is Phase.ASSIGN_HITS:
            reached = cards.ship_types
        elif state.phase is Phase.ANTI_FIGHTER_BARRAGE_HITS:
            widened = any(h.widens_barrage(setup, state, side) for h in setup.handlers)
            reached = cards.ship_types if widened else cards.fighter_types
        elif state.phase is Phase.TIMING_WINDOW:
            if chosen_by_producer(state):
                return None  # the producer assigns that hit, not the holder (14H-1)
            reached = cards.ship_types
        else:
            return None  # not during a space combat (space cannon offense)
        if not any(unit in reached for unit in state.side(side).space.types()):
            return None  # the hits would be lost anyway
        hits = state.hits_on(side)
        cancelled = min(CANCELS, hits)

        def play(s: BattleState) -> Step[BattleState]:
            cancel = event(
                "hits_cancelled", player=side.value, hits=cancelled, cause=cause, by=self.card
            )
            return Step(s.with_hits_on(side, hits - cancelled), (cancel,))

        return self.offer(
            state,
            f"Shields Holding: cancel {cancelled} of the {hits} {cause} hit(s) against you?",
            play,
            facts={"hits": hits},
        )
