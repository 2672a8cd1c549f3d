"""Exotrireme (Sardakk N'orr racial technology, Shattered Empire; data/technologies.toml;
docs/rulings.md 27S-14): "At the end of a round of Space Battle, you may destroy one of your
Dreadnoughts present to destroy two present enemy ships of your choice" (PC_Twi
GameEffects/races/r_Norr.cpp e_NorrExotrireme, its text and code: offered once, before the
second round, against the opponent's capital ships, i.e. not fighters; up to two of them).

Asked at the start of round 2 (the end of round 1; procedures/round_start.py), before the
cards of the round's start, each player with the technology in turn (the attacker first),
while it has a dreadnought there and the opponent has a non-fighter ship. It is a
``play_card`` decision (``card`` ``exotrireme``): one "play" option per choice of the enemy
ships to destroy, the most valuable first (cost, then name), and "pass". The stock player takes
the first only where it gains: the ships destroyed cost at least the dreadnought given up (as
TI4's Exotrireme II, 14B-4, without its clause for the last enemy ships: ending a battle the
player is winning is not worth a dreadnought); else "pass" is first (27S-23).
``policy.play: {exotrireme: {round: 2}}`` plays it always, ``never`` keeps the dreadnought.
The dreadnought given up is a damaged one if there is one (the holder keeps the one worth
more). Once per battle (PC_Twi: round 2 only)."""

from __future__ import annotations

from spacecombat.core.engine import Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities import alastor
from spacecombat.rulesets.ti3.abilities.races import Exotrireme
from spacecombat.rulesets.ti3.cards.common import card_played, damaged, offer_choices, play_first
from spacecombat.rulesets.ti3.cards.target_their_flagship import cost
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

#: the name ``policy.play`` and the decision's ``card`` fact use
CARD = "exotrireme"

#: the round at whose start it is offered (PC_Twi: before round 2)
ROUND = 2


def _targets(setup: Ti3Setup, state: Ti3State, side: Side) -> list[tuple[str, Status]]:
    """The opponent's non-fighter ships, one entry per ship, the most valuable first."""
    cards = setup.side(side.other)
    found = [
        (u, s)
        for u, s, n in state.side(side.other).space
        if cards.is_ship(u) and u != "fighter"
        for _ in range(n)
    ]
    return sorted(found, key=lambda t: (-(cards.card(t[0]).cost or 0), t[0], int(t[1])))


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    return (
        setup.kind == "space"
        and state.round == ROUND
        and setup.side(side).has(Exotrireme.id)
        and bool(state.side(side).space.count("dreadnought"))
        and bool(_targets(setup, state, side))
    )


def _choices(setup: Ti3Setup, state: Ti3State, side: Side) -> list[tuple[tuple[str, Status], ...]]:
    """Each set of up to two enemy ships that may be chosen (as many as there are, up to two),
    the most valuable first, without repeats."""
    ships = _targets(setup, state, side)
    if len(ships) == 1:
        return [(ships[0],)]
    seen: list[tuple[tuple[str, Status], ...]] = []
    for i, first in enumerate(ships):
        for second in ships[i + 1 :]:
            if (first, second) not in seen:
                seen.append((first, second))
    return seen


def _words(pair: tuple[tuple[str, Status], ...]) -> str:
    return " and ".join(damaged(u, s) for u, s in pair)


def _gains(setup: Ti3Setup, side: Side, pair: tuple[tuple[str, Status], ...]) -> bool:
    """Whether destroying ``pair`` is worth the dreadnought given up: they cost at least it."""
    given = cost(setup, side, "dreadnought")
    return sum(cost(setup, side.other, unit) for unit, _ in pair) >= given


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may give up a dreadnought to destroy up to two enemy ships of its choice."""
    choices = _choices(setup, state, side)

    def play(index: int) -> Step[Ti3State]:
        pair = choices[index]
        own = state.side(side).space
        lost = Status.UNDAMAGED
        for status in (Status.DAMAGED, Status.SUSTAINED_THIS_ROUND):
            if own.count("dreadnought", status):
                lost = status
                break
        after = state.with_side(side, state.side(side).with_space(own.remove("dreadnought", lost)))
        enemy = after.side(side.other).space
        said = [
            card_played(side, CARD, state.round),
            unit_destroyed(side, "dreadnought", lost, "Exotrireme"),
        ]
        for unit, status in pair:
            enemy = enemy.remove(unit, status)
            said.append(unit_destroyed(side.other, unit, status, "Exotrireme"))
        after = after.with_side(side.other, after.side(side.other).with_space(enemy))
        for unit, _ in pair:
            after = alastor.fell(setup, after, side.other, unit)
        after = after.changed(step=passed.step)
        if after.alastor:  # the defender's Alastor destroyed: every unit in space goes too
            wiped = alastor.destroy_all(after)
            return Step(wiped.state, (*said, *wiped.events))
        return Step(after, tuple(said))

    return offer_choices(
        side,
        CARD,
        state,
        "Exotrireme: destroy one of your dreadnoughts to destroy two enemy ships?",
        [f"play exotrireme: destroy {_words(pair)}" for pair in choices],
        play,
        passed,
        play_first(setup, side, CARD, _gains(setup, side, choices[0])),
    )
