"""A TI3 space battle neither player can win (docs/rulings.md T15).

TI3's battle goes on "until only the ships of a single player remain". Without repairs every
hit that lands brings that closer, so the battle ends. With Duranium Armor it may not: two
lone dreadnoughts that both repair never destroy each other. The rules have no answer, so the
engine ends such a battle as a ``stalemate`` (both fleets stay) instead of playing for ever.

A player *can win* if, from the start of a round, the path where all of their dice hit and
none of the opponent's do (decisions by the stock policies, nobody withdrawing) destroys the
opponent's ships before a round-start state repeats. Neither can: stalemate.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from spacecombat.core.decisions import Option
from spacecombat.core.engine import Chance, Decision, End, Node, Step
from spacecombat.core.policies import StockPolicy
from spacecombat.core.sides import SIDES, Side
from spacecombat.rulesets.ti3.procedures.common import ships
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

Advance = Callable[[Ti3Setup, Ti3State], Node[Ti3State]]

_cache: weakref.WeakKeyDictionary[Ti3Setup, dict[Ti3State, bool]] = weakref.WeakKeyDictionary()

#: rounds followed at most on one path (a path that has not ended by then repeats)
_MOST_ROUNDS = 1_000


#: set while a path is being followed, so the rounds on it are not checked in turn
_following = False


def possible(setup: Ti3Setup) -> bool:
    """Only repairs can make a battle endless (and no check runs inside a check)."""
    return not _following and any(side.has("duranium_armor") for side in setup.sides.values())


def neither_can_win(setup: Ti3Setup, state: Ti3State, advance: Advance) -> bool:
    """At the start of a round (announce, attacker's turn): can no player ever win?"""
    key = state._replace(round=min(state.round, 2))
    known = _cache.setdefault(setup, {}).get(key)
    if known is None:
        global _following
        _following = True
        try:
            known = not any(_can_win(setup, key, side, advance) for side in SIDES)
        finally:
            _following = False
        _cache[setup][key] = known
    return known


def _can_win(setup: Ti3Setup, start: Ti3State, side: Side, advance: Advance) -> bool:
    policies = {s.value: StockPolicy(setup.side(s).policy) for s in SIDES}
    seen: set[Ti3State] = set()
    state = start
    rounds = 0
    while rounds < _MOST_ROUNDS:
        if state.phase is Phase.ANNOUNCE_WITHDRAWALS and state.turn is Side.ATTACKER:
            if not ships(setup, state, side.other):
                return True
            if not ships(setup, state, side):
                return False
            mark = state._replace(round=0)
            if mark in seen:
                return False
            seen.add(mark)
            rounds += 1
        node = advance(setup, state)
        if isinstance(node, End):
            return False
        if isinstance(node, Step):
            state = node.state
        elif isinstance(node, Chance):
            hits = node.pool.max_hits if node.roller == side.value else 0
            state = node.after((hits, 0) if node.then_marked else hits).state
        elif isinstance(node, Decision):
            request = node.request
            stay = [o for o in request.options if o.text == "stay"]
            option: Option = (
                stay[0] if stay else request.option(policies[request.player].choose(request))
            )
            state = node.then(option).state
        if state.phase in (Phase.END_OF_SPACE_BATTLE, Phase.FLEET_CHECK, Phase.OVER):
            return bool(ships(setup, state, side)) and not ships(setup, state, side.other)
    return False
