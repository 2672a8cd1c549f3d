"""Courageous to the End (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-31): "Roll 2 dice. For each roll equal to or greater than your ship's combat value, your
opponent must immediately take one casualty. You may use this card even if your ship should not
receive return fire. Play: Immediately after one of your ships is destroyed" (the TI3 base deck
data file, 27S-17).

Offered when one of the holder's ships is destroyed as a casualty of hits in the space area
(PDS fire, a pre-combat step, a combat round: procedures/common.py ``remove_casualties``,
which marks ``Ti3State.courage``) while the opponent has ships there. Played, the holder rolls
2 dice at the destroyed ship's printed combat value (no modifier: the card's roll); each
success is a hit the opponent takes at once, on its ships, before the holder's removal goes on
(the opponent's hits still pending from the roll are kept apart and restored after). A ship the
opponent loses to it does not open its own Courageous to the End (one at a time). The stock
holder plays it at the first chance (27A-5). For a fighter destroyed in an ion storm it is
offered as anywhere (its dice are the card's, not the fighter's: option
``ion_storm_courageous``, docs/rulings.md 27J-5)."""

from __future__ import annotations

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.sides import Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3 import ion_storm
from spacecombat.rulesets.ti3.abilities import van_hauge
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "courageous_to_the_end"

#: the dice the card rolls
DICE = 2

#: ``Ti3State.courage`` stages: the holder is asked; its dice are rolled; the opponent takes
#: the hits
ASK = "ask"
ROLL = "roll"
OWED = "owed"


def mark(setup: Ti3Setup, state: Ti3State, side: Side, unit: str) -> Ti3State:
    """After ``side``'s ``unit`` was destroyed as a casualty: mark it when ``side`` may play
    the card on it now."""
    cards = setup.side(side)
    # Van Hauge's ground forces fighting as fighters are ships (fighters) of combat value 9
    # (docs/rulings.md 27T-12)
    fighter = unit in GROUND_FORCES and van_hauge.fighting(setup, state, side)
    if (
        state.courage is not None
        or state.alastor
        or CARD not in state.playable(side)
        or not (cards.is_ship(unit) or fighter)
        or (cards.card(unit).combat is None and not fighter)
        or not ships(setup, state, side.other)
        # in an ion storm, with option ion_storm_courageous: not_offered, not for a fighter
        # or a unit fighting as one (docs/rulings.md 27J-5)
        or ((unit == "fighter" or fighter) and not ion_storm.courageous_for_fighters(setup))
    ):
        return state
    return state.changed(courage=(side.value, ASK, unit, 0))


def ask(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The holder may play the card on its ship just destroyed (``ROLL`` next)."""
    assert state.courage is not None
    holder, _, unit, _ = state.courage

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(after.changed(courage=(holder, ROLL, unit, 0)))

    return offer(
        Side(holder),
        CARD,
        state,
        f"play Courageous to the End: 2 dice at your {unit}'s combat value?",
        play,
        state.changed(courage=None),
    )


def roll(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The card's 2 dice at the ship's printed combat value; each success a hit the opponent
    owes at once (``OWED``: its pending hits kept apart in the mark)."""
    assert state.courage is not None
    holder, _, unit, _ = state.courage
    side = Side(holder)
    # a ground force is marked only while it fought as a fighter: its value then (27T-12)
    value = van_hauge.VALUE
    if unit not in GROUND_FORCES:
        combat = setup.side(side).card(unit).combat
        assert combat is not None
        value = combat.hit
    enemy = side.other

    def then(hits: int) -> Step[Ti3State]:
        if not hits:
            return Step(state.changed(courage=None))
        stash = state.hits_on(enemy)
        return Step(state.with_hits_on(enemy, hits).changed(courage=(holder, OWED, unit, stash)))

    return Chance(holder, CARD, DicePool((DiceGroup(unit, DICE, value),)), then)


def settled(state: Ti3State) -> Ti3State:
    """Once the opponent took the card's hits: its pending hits back, the mark gone."""
    assert state.courage is not None
    holder, _, _, stash = state.courage
    return state.with_hits_on(Side(holder).other, stash).changed(courage=None)
