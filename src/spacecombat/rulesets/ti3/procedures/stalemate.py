"""A TI3 space battle neither player can win (docs/rulings.md T15).

TI3's battle goes on "until only the ships of a single player remain". Without repairs every
hit that lands brings that closer, so the battle ends. With Duranium Armor it may not: two
lone dreadnoughts that both repair never destroy each other; nor in an ion storm, where
fighters roll no dice (27I-2): two players left with fighters alone never hit. The rules have
no answer, so the engine ends such a battle as a ``stalemate`` (both fleets stay) instead of
playing for ever.

A player *can win* if, from the start of a round, the path where all of their dice hit and
none of the opponent's do (decisions by the stock policies, nobody withdrawing) destroys the
opponent's ships before a round-start state repeats. Neither can: stalemate.
"""

from __future__ import annotations

from collections.abc import Callable

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Node
from spacecombat.core.policies import StockPolicy
from spacecombat.core.sides import SIDES, Side
from spacecombat.core.stalemate import PathCheck, favoured_path
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3 import ion_storm
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

Advance = Callable[[Ti3Setup, Ti3State], Node[Ti3State]]

_check: PathCheck[Ti3State] = PathCheck("following")

#: rounds followed at most on one path (a path that has not ended by then repeats)
_MOST_ROUNDS = 1_000


def possible(setup: Ti3Setup) -> bool:
    """Only repairs, or fighters that roll no dice (both players' in an ion storm:
    docs/rulings.md 27I-2), can make a battle endless (and no check runs inside a check)."""
    if _check.running:
        return False
    if any(side.has("duranium_armor") for side in setup.sides.values()):
        return True
    return fighters_may_be_left_alone(setup)


def fighters_may_be_left_alone(setup: Ti3Setup) -> bool:
    """Whether both players may be left with fighters alone, which roll no dice in an ion
    storm (27I-2): both bring fighters there."""
    return not ion_storm.fighters_roll(setup.anomaly) and all(
        setup.initial.side(s).space.count("fighter") for s in SIDES
    )


def neither_can_win(setup: Ti3Setup, state: Ti3State, advance: Advance) -> bool:
    """At the start of a round (announce, attacker's turn): can no player ever win?"""
    key = state.changed(round=min(state.round, 2))
    return _check.answer(
        setup, key, lambda: not any(_can_win(setup, key, side, advance) for side in SIDES)
    )


def _stay(request: DecisionRequest) -> Option | None:
    """Nobody withdraws or retreats on the path."""
    stay = [o for o in request.options if o.text == "stay"]
    return stay[0] if stay else None


def _can_win(setup: Ti3Setup, start: Ti3State, side: Side, advance: Advance) -> bool:
    policies = {s.value: StockPolicy(setup.side(s).policy) for s in SIDES}
    seen: set[Ti3State] = set()
    rounds = 0
    path = favoured_path(lambda s: advance(setup, s), start, side.value, policies, _stay)
    for state in path:
        if state.phase in (Phase.END_OF_SPACE_BATTLE, Phase.FLEET_CHECK, Phase.OVER):
            return bool(ships(setup, state, side)) and not ships(setup, state, side.other)
        if rounds >= _MOST_ROUNDS:
            return False
        if state.phase is Phase.ANNOUNCE_WITHDRAWALS and state.turn is Side.ATTACKER:
            if not ships(setup, state, side.other):
                return True
            if not ships(setup, state, side):
                return False
            mark = state.changed(round=0)
            if mark in seen:
                return False
            seen.add(mark)
            rounds += 1
    return False
