"""Overrun (TI3 Shards of the Throne action card; data/action_cards.toml; docs/rulings.md
27S-4): before an invasion combat in which the holder's Mechanized Unit takes part, destroy one
of the opponent's ground forces on the planet (PC_Twi a_BeforeBattleRound.cpp e_a_Overrun:
"Before land battle in which your Mechanized Unit participates. Destroy 1 enemy Infantry"; it
takes a ground force, else a shock troop).

Either player may hold it (PC_Twi: any army in the land battle); the window is just before the
first round, after Chemical Warfare, the attacker asked first. Only when an invasion combat is
about to be fought there (both players have ground units on the planet)."""

from __future__ import annotations

from spacecombat.core.engine import Node
from spacecombat.core.sides import SIDES, Side
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti3.cards import _destroy_one
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "overrun"

#: what "Infantry" is, in the order taken (PC_Twi: a ground force, else a shock troop)
TAKES = ("ground_force", "shock_troop")


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` holds the card, has a Mechanized Unit on the planet, a combat is about to be
    fought there and the opponent has a ground force or shock troop."""
    p = state.planet
    return (
        setup.kind == "invasion"
        and CARD in state.hand(side)
        and bool(state.side(side).planet(p).count("mechanized_unit"))
        and all(ground_forces(setup, state, s, p) for s in SIDES)
        and _destroy_one.target(state, side, TAKES) is not None
    )


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    return _destroy_one.ask(CARD, "Overrun", state, side, passed, TAKES)
