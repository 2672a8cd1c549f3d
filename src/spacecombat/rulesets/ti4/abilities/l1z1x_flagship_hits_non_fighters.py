"""L1Z1X flagship ([0.0.1]): during space combat, hits produced by this ship and by your
dreadnoughts in its system must be assigned to non-fighter ships if able (data/units.toml;
ti4-combat-effects.md, flagships; docs/rulings.md 14G-4).

It acts on its owner's combat rolls in the rounds of a space combat (ti4-space-combat.md step
3) while the flagship is in the space area when the roll is made (``aims_combat_hits``):
procedures/combat_round.py ``roll_dice`` counts the hits of the flagship's and dreadnoughts'
dice (their groups count marks, one per hit), and the opponent assigns those hits first, to
non-fighter ships while it has any, then the others as usual (procedures/assign_hits.py
``aiming``). The hits stay so restricted even if the flagship is destroyed before they are
assigned (the attacker assigns first): they were produced by it. Not the anti-fighter barrage
or space cannon (no such unit ability of these ships), nor ground combat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState

FLAGSHIP = "flagship"
#: the unit types whose combat hits are aimed at non-fighter ships
AIMED = frozenset({FLAGSHIP, "dreadnought"})


@register
class L1z1xFlagshipHitsNonFighters(Handler):
    id = "l1z1x_flagship_hits_non_fighters"
    #: it only aims its owner's hits, each still taking a hit point (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})

    def aims_combat_hits(
        self, setup: BattleSetup, state: BattleState, roller: Side
    ) -> frozenset[str]:
        # asked only for space combat rolls (roll_dice)
        cards = setup.side(roller)  # The Cavalry's ship keeps its type (14CV-1)
        if roller is not self.owner or not cards.count_of(state.side(roller).space, FLAGSHIP):
            return frozenset()
        return frozenset(unit for aimed in AIMED for unit in cards.of_type(aimed))
