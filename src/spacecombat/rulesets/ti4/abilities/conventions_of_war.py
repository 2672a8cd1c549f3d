"""Conventions of War (law, "for"): no player may fire BOMBARDMENT at units on cultural planets
(ti4-combat-effects.md §7; data/laws.toml). A planet of the battle whose ``traits`` list
``cultural`` is not bombarded (invasion.py ``bombardment``: the ``bombardment_blocked`` event,
reason "Conventions of War"); the other planets are bombarded as usual."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup

CULTURAL = "cultural"


def is_cultural(setup: BattleSetup, planet: int) -> bool:
    """Whether the scenario gives ``planet`` the cultural trait."""
    planets = setup.scenario.planets
    if not planets:
        return False
    return CULTURAL in (planets[planet].traits or ())


@register
class ConventionsOfWar(Handler):
    id = "conventions_of_war"
    battles = INVASION_ONLY  # it forbids a bombardment (24AJ-1)

    def forbids_bombardment(self, setup: BattleSetup, planet: int) -> str | None:
        return "Conventions of War" if is_cultural(setup, planet) else None
