"""PLANETARY SHIELD: a planet that holds a unit with this ability cannot be bombarded, unless
an opposing unit in the system takes planetary shields away, as a war sun does ("other
players' units in this system lose PLANETARY SHIELD"): then every bombarding unit may fire
(docs/rulings.md R3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.forces import Forces
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


def shields_lost(setup: BattleSetup, owner: Side, opponent_space: Forces) -> bool:
    """Whether ``owner``'s units lose PLANETARY SHIELD to an opposing unit in the system."""
    cards = setup.side(owner.other)
    return any(cards.card(u).disables_enemy_planetary_shield for u in opponent_space.types())


def is_shielded(setup: BattleSetup, owner: Side, planet: Forces, opponent_space: Forces) -> bool:
    """Whether ``owner``'s units on ``planet`` keep a planetary shield up against bombardment."""
    cards = setup.side(owner)
    has_shield = any(cards.card(u).planetary_shield for u in planet.types())
    return has_shield and not shields_lost(setup, owner, opponent_space)
