"""Minelayers (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-25): "Choose
a system containing one of your fleets. Each of your Cruisers in the system inflicts one
automatic hit before the first round of a Space Battle. Play: Immediately after an enemy fleet
enters the system" (the TI3 base deck data file, 27S-17).

The holder is the defender (the attacker's fleet entered the system); asked as PDS fire begins,
after Experimental Battlestation (procedures/space_battle.py ``pds_fire``), when it has a
cruiser in the space area and the attacker has ships there. Played, each of its cruisers
inflicts one hit, no die rolled; the attacker takes them at once as casualties on its ships
(SUSTAIN DAMAGE may take them; Direct Hit is not offered on a ship they damage, as after PDS
fire: 27A-7), then PDS fire is rolled. The stock holder plays it at the first chance (27A-5)."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.sides import Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3.cards import experimental_battlestation
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "minelayers"

A, D = Side.ATTACKER, Side.DEFENDER

#: ``step`` once the defender was asked (and its hits, if any, taken)
ASKED = "minelayers"

#: ``step`` while the attacker takes the card's hits
LAID = "minelayers:hits"


def applies(setup: Ti3Setup, state: Ti3State) -> bool:
    """The defender holds the card, has a cruiser there and faces the attacker's ships; not yet
    asked (the steps before it: none, or Experimental Battlestation's)."""
    return (
        setup.kind == "space"
        and state.step in ("", experimental_battlestation.ASKED)
        and CARD in state.hand(D)
        and bool(state.defender.space.count("cruiser"))
        and bool(ships(setup, state, A))
    )


def ask(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The defender may have each of its cruisers inflict one hit on the attacker."""

    def play(after: Ti3State) -> Step[Ti3State]:
        hits = after.defender.space.count("cruiser")
        return Step(after.with_hits_on(A, after.hits_on(A) + hits).changed(step=LAID))

    return offer(
        D,
        CARD,
        state,
        "play Minelayers: each of your cruisers inflicts one hit on the attacker?",
        play,
        state.changed(step=ASKED),
    )
