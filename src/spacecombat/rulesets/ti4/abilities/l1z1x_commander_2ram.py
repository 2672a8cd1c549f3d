"""2RAM (L1Z1X commander): units with PLANETARY SHIELD do not prevent your BOMBARDMENT
(ti4-combat-effects.md §4; data/cards.toml). A passive ability of the commander's holder: the
defender's planetary shields do not stop the holder's bombardment (planetary_shield.py
``stops_bombardment``, asked in invasion.py ``bombardment``). The shield itself stays up
(Magen Defense Grid still sees it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.sides import Side


@register
class TwoRam(Handler):
    id = "l1z1x_commander_2ram"
    battles = INVASION_ONLY  # it lets a bombardment ignore PLANETARY SHIELD (24AJ-1)

    def ignores_planetary_shield(self, setup: BattleSetup, bombarder: Side) -> bool:
        return bombarder is self.owner
