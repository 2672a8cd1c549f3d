"""The combat-roll modifiers of the TI3 action cards in play (Into the Breach, Fighter
Prototype, Morale Boost, A Beacon of Hope): what a roll's pool reads of them (``key``: part of
the pool's cache key) and the modifier each unit's dice get from them (``modifier``; A Beacon of
Hope's extra hit is read where the pool's groups are made, procedures/common.py)."""

from __future__ import annotations

from typing import NamedTuple

from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.base import RollContext, RollKind
from spacecombat.rulesets.ti3.cards import (
    beacon_of_hope,
    fighter_prototype,
    into_the_breach,
    morale_boost,
)
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State


class CardBonuses(NamedTuple):
    """The cards in play on one roll of one player."""

    #: Into the Breach: +1 on the player's ships' combat rolls (0 or 1)
    breach: int = 0
    #: Fighter Prototype: +2 on the player's fighters' dice of round 1
    prototype: bool = False
    #: Morale Boost: +1 on all the player's dice of this round
    morale: bool = False
    #: A Beacon of Hope: each 10 of the player's dice one hit more
    beacon: bool = False


NONE = CardBonuses()


def key(setup: Ti3Setup, state: Ti3State, roller: Side, kind: RollKind) -> CardBonuses:
    """The cards in play on ``roller``'s roll of ``kind`` now."""
    if not setup.side(roller).held:
        return NONE
    return CardBonuses(
        into_the_breach.bonus(setup, state, roller, kind),
        fighter_prototype.in_play(setup, state, roller, kind),
        morale_boost.in_play(state, roller, kind),
        beacon_of_hope.in_play(setup, state, roller, kind),
    )


def modifier(setup: Ti3Setup, roller: Side, roll: RollContext, cards: CardBonuses) -> int:
    """The modifier the dice of ``roll`` get from ``cards`` (Fighter Prototype's reaches units
    fighting as fighters: docs/rulings.md 27T-12)."""
    total = 0
    if cards.breach and setup.side(roller).is_ship(roll.unit):
        total += cards.breach
    if cards.prototype and roll.fighter:
        total += fighter_prototype.BONUS
    if cards.morale:
        total += 1
    return total
