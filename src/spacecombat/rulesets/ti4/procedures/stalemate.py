"""Combats that can never end.

ti4-space-combat-wiki.md FAQ: if neither side can possibly win (e.g. Non-Euclidean Shielding
with Duranium Armor), the attacker must retreat, and if it cannot, its units in the combat are
destroyed. We test this at each Announce Retreats step (docs/rulings.md R20): a side "can win"
if the combat ends when that side hits with every die and the other side never hits, each
player deciding as its stock policy would. Since more hits never help the side that takes
them, if even that path never ends (its round-start states repeat), nothing can end it.
"""

from __future__ import annotations

import contextvars
import weakref

from spacecombat.core.engine import Chance, Decision, End, Step
from spacecombat.core.policies import StockPolicy
from spacecombat.core.sides import SideState
from spacecombat.rulesets.ti4.abilities.base import acts_in_rounds
from spacecombat.rulesets.ti4.procedures.common import combat_pool
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

_simulating: contextvars.ContextVar[bool] = contextvars.ContextVar("simulating", default=False)
_cache: weakref.WeakKeyDictionary[BattleSetup, dict[tuple[SideState, SideState, int], bool]] = (
    weakref.WeakKeyDictionary()
)


def neither_can_win(setup: BattleSetup, state: BattleState) -> bool:
    """Whether no sequence of dice can end the current combat."""
    if _simulating.get():
        return False
    if not any(acts_in_rounds(h) for h in setup.handlers):
        # Hits only ever take units away: a side with a die that can hit wins on the path
        # where it always hits and the other never does. Only two sides that cannot hit at all
        # are stuck (their dice would need more than 10).
        return all(combat_pool(setup, state, side).max_hits == 0 for side in SIDES)
    known = _cache.setdefault(setup, {})
    key = (state.attacker, state.defender, state.planet)
    if key not in known:
        token = _simulating.set(True)
        try:
            known[key] = not any(_can_end(setup, state, side) for side in SIDES)
        finally:
            _simulating.reset(token)
    return known[key]


def _can_end(setup: BattleSetup, state: BattleState, favoured: Side) -> bool:
    from spacecombat.rulesets.ti4.battle import Ti4Battle

    battle = Ti4Battle(setup)
    policies = {side.value: StockPolicy(setup.side(side).policy) for side in SIDES}
    seen: set[tuple[SideState, SideState]] = set()
    current = state
    start_planet = state.planet
    while True:
        if current.phase is Phase.END_OF_ROUND:
            key = (current.attacker, current.defender)
            if key in seen:
                return False
            seen.add(key)
        if setup.kind == "invasion" and (
            current.planet != start_planet or current.phase in (Phase.ESTABLISH_CONTROL, Phase.OVER)
        ):
            return True
        node = battle.advance(current)
        if isinstance(node, End):
            return True
        if isinstance(node, Step):
            current = node.state
        elif isinstance(node, Chance):
            hits = node.pool.max_hits if node.roller == favoured.value else 0
            current = node.then(hits).state
        elif isinstance(node, Decision):
            request = node.request
            answer = policies[request.player].choose(request)
            current = node.then(request.option(answer)).state
