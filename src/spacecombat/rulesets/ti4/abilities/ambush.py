"""Ambush (Mentak faction ability): at the start of a space combat, roll 1 die for each of up to
2 of your cruisers or destroyers in the active system; each die that reaches that ship's combat
value is a hit, which the opponent assigns to one of their ships (ti4-combat-effects.md;
data/factions.toml). Rolled in the "start of combat" window (ti4-space-combat.md rule 2.1) as
a roll of purpose "ambush", with the 2 ships of the best combat values (the choice no player
would make otherwise; docs/rulings.md 14B-2). It is not a combat roll: combat-roll
modifiers do not apply. The hits may be cancelled by SUSTAIN DAMAGE (14B-1), and the cards
answering hits are offered around them (Shields Holding, Tellurian, Direct Hit, Reflective
Shielding: docs/rulings.md 14H-1 to 14H-4; effects.py ``aimed_hits``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.rulesets.ti4.abilities.base import Acts, Handler, register
from spacecombat.rulesets.ti4.effects import aimed_hits
from spacecombat.rulesets.ti4.hooks import Window

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState

CAUSE = "Ambush"
SHIPS = ("cruiser", "destroyer")


@register
class Ambush(Handler):
    id = "ambush"
    #: acts at the start of combat, before the first round's dice (product form kept)
    keeps_product_form = frozenset({"in_window"})
    acts = Acts(frozenset({Window.START_OF_COMBAT}), battles=frozenset({"space"}))

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self.player
        cards = setup.side(owner)
        space = state.side(owner).space
        values: list[tuple[int, str]] = []
        for unit, _, count in space:  # The Cavalry's ship is still a cruiser (14CV-2)
            combat = cards.card(unit).combat
            if combat is not None and cards.card(unit).type in SHIPS:
                values += [(combat.hit, unit)] * count
        chosen = sorted(values)[:2]
        if not chosen:
            return None
        groups = [
            DiceGroup(unit, sum(1 for _, u in chosen if u == unit), hit)
            for hit, unit in sorted(set(chosen))
        ]
        return Chance(
            owner.value,
            "ambush",
            DicePool.of(groups),
            lambda hits: Step(aimed_hits(state, owner.other, hits, CAUSE) if hits else state),
        )
