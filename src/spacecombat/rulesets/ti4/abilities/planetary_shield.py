"""PLANETARY SHIELD: a planet that holds a unit with this ability cannot be bombarded, unless
an opposing unit in the system takes planetary shields away, as a war sun does ("other
players' units in this system lose PLANETARY SHIELD"): then every bombarding unit may fire
(docs/rulings.md R3). Handlers may take it from single units (``loses_ability``: Disable) or
make it not stop one player's bombardment (``ignores_planetary_shield``: 2RAM)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.forces import Forces
from spacecombat.rulesets.ti4.sides import Side

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState


def shields_lost(setup: BattleSetup, owner: Side, opponent_space: Forces) -> bool:
    """Whether ``owner``'s units lose PLANETARY SHIELD to an opposing unit in the system."""
    cards = setup.side(owner.other)
    return any(cards.card(u).disables_enemy_planetary_shield for u in opponent_space.types())


def is_shielded(setup: BattleSetup, owner: Side, planet: Forces, opponent_space: Forces) -> bool:
    """Whether ``owner``'s units on ``planet`` keep a planetary shield up against bombardment."""
    cards = setup.side(owner)
    has_shield = any(cards.card(u).planetary_shield for u in planet.types())
    return has_shield and not shields_lost(setup, owner, opponent_space)


def has_planetary_shield(setup: BattleSetup, state: BattleState, owner: Side, planet: int) -> bool:
    """Whether one of ``owner``'s units on ``planet`` has PLANETARY SHIELD now: not lost to an
    opposing unit in the system (war sun) nor to a handler (Disable takes it from PDS)."""
    if shields_lost(setup, owner, state.side(owner.other).space):
        return False
    cards = setup.side(owner)
    return any(
        cards.card(unit).planetary_shield
        and not any(
            h.loses_ability(setup, state, owner, unit, "planetary_shield") for h in setup.handlers
        )
        for unit in state.side(owner).planet(planet).types()
    )


def stops_bombardment(setup: BattleSetup, state: BattleState, owner: Side, planet: int) -> bool:
    """Whether a planetary shield on ``owner``'s ``planet`` stops the opponent's BOMBARDMENT
    (unless a handler of the opponent's says it does not: 2RAM)."""
    bombarder = owner.other
    if any(h.ignores_planetary_shield(setup, bombarder) for h in setup.handlers):
        return False
    return has_planetary_shield(setup, state, owner, planet)
