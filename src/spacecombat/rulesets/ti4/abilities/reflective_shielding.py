"""Reflective Shielding (action card): when one of your ships uses SUSTAIN DAMAGE during a space
combat, produce 2 hits against your opponent's ships in the system (data/cards.toml;
ti4-combat-effects.md, codex). Offered to its holder right after one of their ships sustains
damage in a space combat round (ti4-space-combat.md step 4.1; not against space cannon offense,
which comes before the combat: docs/rulings.md 14A-7). The 2 hits join those the
opponent has still to assign; if the opponent (the attacker) has already assigned its hits
this round, it assigns them when the holder is done (procedures/assign_hits.py). The stock
policy plays it the first time it is offered (``policy.play`` may restrict)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import Card, register
from spacecombat.rulesets.ti4.abilities.sustain_damage import ActsOnHits
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

#: hits it produces
HITS = 2


@register
class ReflectiveShielding(ActsOnHits, Card):
    id = "reflective_shielding"
    card = "reflective_shielding"

    def after_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        owner = self.owner
        if side is not owner or where is not None or not self.held(state):
            return None
        if state.phase is not Phase.ASSIGN_HITS:
            return None  # not in a space combat round (space cannon offense)
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
            return Step(s.with_hits_on(opponent, s.hits_on(opponent) + HITS), (produced,))

        return self.offer(
            state,
            f"Reflective Shielding: your {unit} sustained damage; produce {HITS} hits against "
            "your opponent's ships?",
            play,
            facts={"unit": unit},
        )
