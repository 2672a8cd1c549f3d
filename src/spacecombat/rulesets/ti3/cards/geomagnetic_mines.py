"""Geomagnetic Mines (TI3 Shards of the Throne action card; data/action_cards.toml;
docs/rulings.md 27S-4): before an invasion combat in which an enemy Mechanized Unit takes part,
destroy one of them (PC_Twi a_BeforeBattleRound.cpp e_a_GeomagneticMines: "Before land battle
in which enemy Mechanized Unit participates. Destroy 1 enemy Mechanized Unit").

Either player may hold it; the window is Overrun's (just before the first round, the attacker
asked first), only when an invasion combat is about to be fought there."""

from __future__ import annotations

from spacecombat.core.engine import Node
from spacecombat.core.sides import SIDES, Side
from spacecombat.core.state import ground_forces
from spacecombat.rulesets.ti3.cards import _destroy_one
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "geomagnetic_mines"

TAKES = ("mechanized_unit",)


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` holds the card, a combat is about to be fought on the planet and the opponent
    has a Mechanized Unit there."""
    p = state.planet
    return (
        setup.kind == "invasion"
        and CARD in state.hand(side)
        and all(ground_forces(setup, state, s, p) for s in SIDES)
        and _destroy_one.target(state, side, TAKES) is not None
    )


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    return _destroy_one.ask(CARD, "Geomagnetic Mines", state, side, passed, TAKES)
