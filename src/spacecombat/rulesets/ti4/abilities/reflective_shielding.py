"""Reflective Shielding (action card): when one of your ships uses SUSTAIN DAMAGE during a space
combat, produce 2 hits against your opponent's ships in the system (data/cards.toml;
ti4-combat-effects.md, codex). Offered to its holder right after one of their ships sustains
damage in a space combat round (ti4-space-combat.md step 4.1), against hits produced in a timing
window of the combat (Ambush, Dimensional Splicer: rule 2.1) or against anti-fighter barrage
hits (with Waylay); not against space cannon offense, which comes before the combat
(docs/rulings.md 14A-7, 14H-3). In a combat round the 2 hits join those the opponent has still
to assign; if the opponent (the attacker) has already assigned its hits this round, it assigns
them when the holder is done, its last hits assigned or lost alike (procedures/assign_hits.py;
docs/rulings.md 27U-1). In a timing window the opponent assigns them at once, to any of its
ships (effects.py ``aimed_hits``). Played during anti-fighter barrage (against Waylay's hits),
its hits are not barrage hits: the opponent assigns them to any of its ships once the barrage
hits are assigned (``Mark.PRODUCED_IN_BARRAGE``; procedures/space_combat.py; docs/rulings.md
27T-7). The stock policy plays it the first time it is offered (``policy.play`` may restrict)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.effects import aimed_hits
from spacecombat.rulesets.ti4.state import Mark, Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: hits it produces
HITS = 2
#: the ``cause`` of its hits when they are assigned in a timing window
CAUSE = "Reflective Shielding"


@register
class ReflectiveShielding(ActsOnHits, Card):
    id = "reflective_shielding"
    card = "reflective_shielding"
    #: offered after its holder's ship uses SUSTAIN DAMAGE, "pass" changes nothing, and its
    #: hits are produced after a "play" only: it acts only once played (24B-1, 24U-4)
    played_as = card
    #: it produces hits against its owner's opponent: on its owner's path the other side's
    #: loss; on the other's it would take the favoured side's units (24AF-1)
    never_stalls_on = frozenset({"owner"})

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """Its hooks of hit assignment act on its holder's assignment only, and only while the
        card is held (not yet played, nor cancelled): else they answer ``None``
        (``Handler.idle_while_assigning``)."""
        return side is not self.owner or not self.held(state)

    def blind_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """While its holder assigns, it reads the ship that just sustained and whether the
        card is held; played, it adds 2 hits to those against the opponent, reading nothing
        else of the opponent's part (``Handler.blind_while_assigning``)."""
        return True

    def after_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        owner = self.owner
        if side is not owner or where is not None or not self.held(state):
            return None
        in_window = state.phase is Phase.TIMING_WINDOW and bool(state.aim.cause)
        barrage = state.phase is Phase.ANTI_FIGHTER_BARRAGE_HITS
        if state.phase is not Phase.ASSIGN_HITS and not in_window and not barrage:
            return None  # not during a space combat (space cannon offense)
        unit = state.sustained[-1]
        if unit not in setup.side(side).ship_types:
            return None  # a unit that is not a ship (none sustains in space combat today)
        opponent = side.other

        def play(s: BattleState) -> Step[BattleState]:
            produced = event(
                "hits_produced",
                player=side.value,
                hits=HITS,
                against=opponent.value,
                by=self.card,
            )
            if barrage:
                # assigned once the barrage hits are (procedures/space_combat.py; 27T-7)
                before = s.mark_count(opponent, Mark.PRODUCED_IN_BARRAGE) or 0
                marked = s.marking(opponent, Mark.PRODUCED_IN_BARRAGE, before + HITS)
                return Step(marked, (produced,))
            if in_window:
                return Step(_in_window(s, side), (produced,))
            return Step(s.with_hits_on(opponent, s.hits_on(opponent) + HITS), (produced,))

        return self.offer(
            state,
            f"Reflective Shielding: your {unit} sustained damage; produce {HITS} hits against "
            "your opponent's ships?",
            play,
            facts={"unit": unit},
        )


def _in_window(state: BattleState, side: Side) -> BattleState:
    """``state`` with the 2 hits produced against ``side``'s opponent while hits of a timing
    window are assigned: assigned at once, by the opponent, to any of its ships (14H-3)."""
    opponent = side.other
    cause = state.aim.cause
    if state.hits_on(side) and state.aim.restricted:
        # the holder still has hits to assign that reach only some ships (none do today: each
        # such effect produces 1 hit): both would share one ``aim``
        raise RuleNotImplemented(
            f"Reflective Shielding while {cause} hits aimed at some ships are left",
            f"{side.value}'s Reflective Shielding",
        )
    if state.hits_on(side):
        # the holder's own hits left reach any ship too: both are assigned now, under one name
        return aimed_hits(state, opponent, HITS, f"{cause} and {CAUSE}")
    return aimed_hits(state, opponent, HITS, CAUSE)
