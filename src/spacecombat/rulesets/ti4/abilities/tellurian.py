"""Tellurian (Titans agent): when a hit is produced against a unit, exhaust to cancel that hit
(data/cards.toml; ti4-combat-effects.md, leaders). Offered to its holder before they assign
hits against their own units (ti4-space-combat.md step 4; any hits: space cannon, anti-fighter
barrage, with Waylay too, combat rounds, bombardment, ground combat, and hits produced in a
timing window, even those the producer placed on a ship: docs/rulings.md 14H-4), when those
hits are more than SUSTAIN DAMAGE could cancel, so that the holder would otherwise lose a unit;
played, it cancels 1 hit.
Hits against the opponent's units are not offered (docs/rulings.md 14A-8). The stock
policy plays it the first time it is offered (``policy.play`` may restrict)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities import sustain_damage
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.effects import window_targets
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: where the hits may reach only fighters, which cannot sustain (docs/rulings.md R4)
_FIGHTERS_ONLY = (Phase.ANTI_FIGHTER_BARRAGE_HITS,)


@register
class Tellurian(ActsOnHits, Card):
    id = "tellurian"
    card = "tellurian"
    #: it cancels a hit against its owner's units only, as Duranium Armor repairs (24AF-2)
    never_stalls_for_owner = True

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """Its hooks of hit assignment act on its holder's assignment only, and only while the
        card is held (not yet played, nor cancelled): else they answer ``None``
        (``Handler.idle_while_assigning``)."""
        return side is not self.owner or not self.held(state)

    def blind_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """While its holder assigns, it reads the holder's units, the hits against them and
        whether the card is held (and asks the handlers forbidding SUSTAIN DAMAGE, themselves
        asked about the assignment); played, it cancels 1 of those hits: nothing of the
        opponent's part (``Handler.blind_while_assigning``)."""
        return True

    def before_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        if side is not self.owner or not self.held(state):
            return None
        hits = state.hits_on(side)
        cards = setup.side(side)
        area = state.side(side).area(where)
        widened = any(h.widens_barrage(setup, state, side) for h in setup.handlers)
        if state.phase is Phase.TIMING_WINDOW and state.aim.cause:
            # hits produced in a timing window reach the ships their aim says (14H-4)
            targets = window_targets(setup, state, side)
            reached = frozenset(unit for unit, _ in targets)
            statuses = frozenset(targets)
        else:
            statuses = None
            if state.phase in _FIGHTERS_ONLY and not widened:
                reached = cards.fighter_types
            else:
                reached = cards.ship_types if where is None else cards.ground_force_types
        if state.phase in _FIGHTERS_ONLY and not widened:
            sustains = 0
        else:
            able = sustain_damage.sustainable(setup, side)
            sustains = sum(
                count
                for unit, status, count in area
                if unit in reached
                and (statuses is None or (unit, status) in statuses)
                and able(unit, status)
                and not any(
                    h.forbids_sustain(setup, state, side, where, unit) for h in setup.handlers
                )
            ) * setup.sustain_cancels(side)
        if not any(unit in reached for unit in area.types()) or hits <= sustains:
            return None  # no unit to lose, or SUSTAIN DAMAGE can cancel every hit

        def play(s: BattleState) -> Step[BattleState]:
            cancel = event("hits_cancelled", player=side.value, hits=1, cause=cause, by=self.card)
            return Step(s.with_hits_on(side, s.hits_on(side) - 1), (cancel,))

        return self.offer(
            state, f"Tellurian: exhaust to cancel 1 of the {hits} {cause} hit(s)?", play
        )
