"""Floating Factory I and II (the Saar space docks, data/units.toml): the unit stands in the
space area instead of on a planet, moves and retreats as if it were a ship without being one,
and is destroyed if it is blockaded. Its capacity value (4, 5) holds the Saar's fighters and
ground forces in the space area (procedures/capacity.py).

LRR 14 (Blockaded): a player's unit with PRODUCTION is blockaded in a system that holds none
of that player's ships and some of another player's ships; note 2: at the end of a combat, the
blockade comes before fighters beyond capacity are removed. The factory is therefore destroyed
by every capacity check of the battle (procedures/capacity.py ``excess``, ``remove_excess``:
before the battle, after space cannon offense, at the end of combat), first thing, as soon as
its player has no ships left in the active system while the opponent has some
(docs/rulings.md 14F-1).

At set-up (``set_up_side``) the side's unit types with this ability become its floating units
(``SideSetup.floating``), which the procedures treat by that rule alone, naming no effect. The
scenario lists the factory among the side's ``units`` of a space battle; the engine keeps
it with the side's structures (the planets area of the state), where nothing of the space
combat reaches it (it is not a ship: never hit, never rolls). A space area left without ships
of either player keeps the ground forces the factory, not blockaded, holds within its capacity
(procedures/space_combat.py ``end_of_combat``). When its player retreats, the factory goes
with the ships, its capacity carrying fighters and ground forces with theirs
(procedures/retreat.py ``floating_factories``; docs/rulings.md 14K-5); out of a gravity rift
it rolls to leave as a ship does, its cargo with it."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import SideDraft
    from spacecombat.scenario.schema import Scenario

ID = "saar_floating_factory"

#: the cause of the ``unit_destroyed`` event of a blockaded factory
BLOCKADED = "blockaded (Floating Factory)"


@register
class FloatingFactory(Handler):
    id = ID

    def set_up_side(self, scenario: Scenario, draft: SideDraft) -> SideDraft:
        """In a space battle, its owner's unit types with this ability are floating units
        (``SideSetup.floating``: capacity.py holds units with their capacity and destroys them
        when blockaded, retreat.py moves them with the ships). In an invasion the factory
        plays no part (core/setup.py ``check_invasion_places`` refuses it on a planet)."""
        if scenario.battle != "space" or draft.side is not self.owner:
            return draft
        kinds = [
            unit
            for unit, card in draft.cards.items()
            if any(a.combat == "rule" and a.handler == ID for a in card.abilities)
        ]
        if not kinds:
            return draft
        return replace(draft, floating={**draft.floating, **dict.fromkeys(kinds, BLOCKADED)})
