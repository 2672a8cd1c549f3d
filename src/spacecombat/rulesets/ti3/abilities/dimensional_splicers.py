"""Dimensional Splicers (Ghosts of Creuss racial technology, Shards of the Throne;
data/technologies.toml; docs/rulings.md 27S-33): "At the start of a battle containing a Wormhole
and at least one of your ships, you may assign 1 hit to an enemy ship of your choice" (PC_Twi
GameEffects/races/r_Creuss.cpp e_CreussDimensionalSplicers).

A space battle only (the hit goes on a ship), in a system with a wormhole: the scenario's
``system.wormholes`` names them (TI3 reads the key since 27S-33; any wormhole will do). Asked at
the start of the space battle, after the cards played "immediately before" it (the opening
window, 27S-2) and before the pre-combat steps, each player with the technology in turn (the
attacker first), while it has a ship there and the opponent has one. A ``play_card`` decision
(``card`` ``dimensional_splicers``): one "play" option per enemy ship type and status, a ship
the hit destroys first, then the dearest (as Target Their Flagship!'s targets, 27S-28), and
"pass"; the stock player takes the first (a free hit). The hit is put on the chosen ship, its
owner not choosing: damaged if it has SUSTAIN DAMAGE and is undamaged, else destroyed
(``target_their_flagship.hit_ship``). A racial technology, not an action card: Communications
Breakdown does not stop it (27S-29). It acts before the rounds: the product form holds."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.sides import SIDES, Side
from spacecombat.rulesets.ti3.abilities.races import DimensionalSplicers
from spacecombat.rulesets.ti3.cards.common import card_played, damaged, offer_choices
from spacecombat.rulesets.ti3.cards.target_their_flagship import hit_ship, targets
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

#: the name ``policy.play`` and the decision's ``card`` fact use
CARD = DimensionalSplicers.id

#: ``step`` prefix while the players are asked: the index (in ``SIDES``) of the next one
STEP = "splicers:"

CAUSE = "Dimensional Splicers"


def _own_ships(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    cards = setup.side(side)
    return state.side(side).space.total(cards.is_ship) > 0


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """Whether ``side`` may assign the hit now."""
    return (
        setup.kind == "space"
        and bool(setup.wormholes)
        and setup.side(side).has(CARD)
        and _own_ships(setup, state, side)
        and bool(targets(setup, state, side.other))
    )


def begin(setup: Ti3Setup, state: Ti3State) -> Ti3State:
    """The state at the start of the space battle: asking the players (``STEP``) if one of
    them holds the technology in a system with a wormhole, else ``state`` as it is."""
    if setup.kind == "space" and setup.wormholes and any(setup.side(s).has(CARD) for s in SIDES):
        return state.changed(step=f"{STEP}0")
    return state


def next_player(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Ask the next player with the technology (``state.step``: ``STEP`` and its index); then
    the pre-combat steps (``step`` cleared)."""
    at = int(state.step[len(STEP) :])
    for index in range(at, len(SIDES)):
        side = SIDES[index]
        if applies(setup, state, side):
            return _ask(setup, state, side, state.changed(step=f"{STEP}{index + 1}"))
    return Step(state.changed(step=""))


def _ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    choices: list[tuple[str, Status]] = targets(setup, state, side.other)

    def play(index: int) -> Step[Ti3State]:
        unit, status = choices[index]
        done = hit_ship(setup, passed, side.other, unit, status, CAUSE)
        return Step(done.state, (card_played(side, CARD, state.round), *done.events))

    return offer_choices(
        side,
        CARD,
        state,
        "Dimensional Splicers: assign 1 hit to an enemy ship of your choice?",
        [f"play {CARD}: hit {damaged(unit, status)}" for unit, status in choices],
        play,
        passed,
    )
