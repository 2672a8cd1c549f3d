"""Skilled Retreat (action card): at the start of a combat round, move all of your ships from
the active system to an adjacent system that holds no other player's ships; the space combat
ends in a draw; then place a command token from your reinforcements in that system
(ti4-combat-effects.md §6; data/cards.toml; docs/rulings.md 14B3-1 to 14B3-3).

Offered in the "start of combat round" window of a space combat (ti4-space-combat.md rule 2.1;
procedures/windows.py) while both players have ships there, the holder has a ship that can
move, and some adjacent system qualifies. Played, the ships leave through the Retreat
procedure's own sub-steps (ti4-space-combat.md step 5: destination, transport within capacity,
leaving a gravity rift, the command token; effects.py ``skilled_retreat``), and the
combat ends in a draw: the outcome reports what got away as it reports a retreat. The stock
policy plays it at the first chance (``policy.play`` may name a later round or say never)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Node, Step
from spacecombat.core.state import ships
from spacecombat.rulesets.ti4.abilities.base import Acts, Card, register
from spacecombat.rulesets.ti4.effects import skilled_retreat, skilled_systems
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


@register
class SkilledRetreat(Card):
    id = "skilled_retreat"
    card = "skilled_retreat"
    acts = Acts(frozenset({Window.START_OF_COMBAT_ROUND}), battles=frozenset({"space"}), held=True)
    #: played, it ends the combat (a draw): the path ends (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        if state.retreat is not None:
            return None
        if not ships(setup, state, owner.other) or not skilled_systems(setup, owner):
            return None
        cards = setup.side(owner)
        if not state.side(owner).space.total(cards.can_move):
            return None  # no ship of the holder can move: the card moves nothing

        def play(s: BattleState) -> Step[BattleState]:
            return Step(skilled_retreat(setup, s, owner))

        return self.offer(
            state, "Skilled Retreat: move all your ships to an adjacent system (a draw)?", play
        )
