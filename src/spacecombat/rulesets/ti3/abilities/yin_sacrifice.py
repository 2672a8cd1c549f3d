"""The Yin Brotherhood's sacrifice (racial ability; data/factions.toml; docs/rulings.md
27S-15): "Before the second round of a space battle, may discard a Cruiser or Destroyer to
immediately inflict one hit on any enemy ship" (wiki.omf2097.com joneirik:rpg:ti3_races; PC_Twi
GameEffects/races/r_Yin.cpp e_YinKamikaze: once, before round 2, one of its destroyers or
cruisers against one of the opponent's capital, i.e. non-fighter, ships, which takes the hit:
damaged if it has SUSTAIN DAMAGE and is undamaged, else destroyed).

Asked at the start of round 2 with Exotrireme (procedures/round_start.py), the attacker first;
a ``play_card`` decision (``card`` ``yin_sacrifice``): one "play" option per (own ship given
up, enemy ship hit), the cheapest own ship first, then the enemy ship the hit destroys before
one it only damages, the dearest first; and "pass". The stock player takes the first only
where it gains: the hit destroys an enemy ship that costs at least the ship given up (a hit
that only damages a ship is not worth a ship); else "pass" is first (27S-23).
``policy.play: {yin_sacrifice: {round: 2}}`` plays it always, ``never`` keeps its ships."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.races import YinSacrifice
from spacecombat.rulesets.ti3.cards.common import card_played, offer_choices, play_first
from spacecombat.rulesets.ti3.cards.target_their_flagship import (
    cost,
    destroys,
    hit_ship,
    ship_at_ship,
    targets,
)
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "yin_sacrifice"

#: the round at whose start it is offered (PC_Twi: before round 2)
ROUND = 2

#: the ships the Yin may give up
GIVEN = ("destroyer", "cruiser")

#: the cause its events name
WHY = "the Yin sacrifice"


def _choices(setup: Ti3Setup, state: Ti3State, side: Side) -> list[tuple[str, str, Status]]:
    enemy = side.other
    own = [u for u in GIVEN if state.side(side).space.count(u)]
    own.sort(key=lambda u: (cost(setup, side, u), u))
    hit = [(u, s) for u, s in targets(setup, state, enemy) if u != "fighter"]
    return [(mine, unit, status) for mine in own for unit, status in hit]


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    return (
        setup.kind == "space"
        and state.round == ROUND
        and setup.side(side).has(YinSacrifice.id)
        and bool(_choices(setup, state, side))
    )


def _gains(setup: Ti3Setup, side: Side, choice: tuple[str, str, Status]) -> bool:
    """Whether ``choice`` (own ship given up, enemy ship hit) is worth its ship: the hit
    destroys an enemy ship costing at least it."""
    mine, unit, status = choice
    return destroys(setup, side.other, unit, status) and cost(setup, side.other, unit) >= cost(
        setup, side, mine
    )


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may give up a destroyer or cruiser to put one hit on an enemy ship."""
    choices = _choices(setup, state, side)

    def play(index: int) -> Step[Ti3State]:
        mine, unit, status = choices[index]
        own = state.side(side).space.remove(mine, Status.UNDAMAGED)
        after = state.with_side(side, state.side(side).with_space(own))
        said = [
            card_played(side, CARD, state.round),
            unit_destroyed(side, mine, Status.UNDAMAGED, WHY),
        ]
        hit = hit_ship(setup, after.changed(step=passed.step), side.other, unit, status, WHY)
        return Step(hit.state, (*said, *hit.events))

    return offer_choices(
        side,
        CARD,
        state,
        "before round 2: discard a cruiser or destroyer to inflict one hit on an enemy ship?",
        ship_at_ship(f"play {CARD}:", "on", choices),
        play,
        passed,
        play_first(setup, side, CARD, _gains(setup, side, choices[0])),
    )
