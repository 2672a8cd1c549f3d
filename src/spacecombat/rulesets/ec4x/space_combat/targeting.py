"""Target Priority Rules (7.3.2): diplomatic filtering, buckets, the fighter rule and weights.

- 7.3.2.1: an attacker may target only houses its house considers hostile (``regards_hostile``).
- 7.3.2.3: a fighter squadron targets hostile fighter squadrons while any exist.
- 7.3.2.4: otherwise the first non-empty bucket in the order 1 Raider → 5 Starbase.
- 7.3.2.5: weight = Base_Weight(bucket) × Unit_Size × Crippled_Modifier (2 if crippled), all
  whole numbers, so the draw is exact. Every candidate is in one bucket, so the base weight
  cancels out of every draw (ambiguity 12); it is applied anyway, as written.
"""

from __future__ import annotations

from typing import NamedTuple

from spacecombat.rulesets.ec4x.setup import HOLD, MEMO_LIMIT, THREAT_ORDERS, Setup
from spacecombat.rulesets.ec4x.space_combat.engagement import FleetPosture, hostile
from spacecombat.rulesets.ec4x.state import CRIPPLED, IN_BATTLE, State
from spacecombat.rulesets.ec4x.tables import tables


def order_of(setup: Setup, state: State, fleet: int) -> int:
    """A fleet's order this turn: 00 if it refuses orders (7.1.4 crisis, ruling E44)."""
    return HOLD if state.refused >> fleet & 1 else setup.fleets[fleet].order


def posture(setup: Setup, state: State, fleet: int) -> FleetPosture:
    """What engagement.py needs of a fleet: house, order, and the colony it threatens (an
    order 05–08 or 12 in a system another house controls is directed at that colony)."""
    order = order_of(setup, state, fleet)
    house = setup.fleets[fleet].house
    controller = setup.controller
    threatens = (
        setup.houses[controller]
        if order in THREAT_ORDERS and controller >= 0 and controller != house
        else None
    )
    return FleetPosture(setup.houses[house], order, threatens)


def regards_hostile(
    setup: Setup, state: State, attacker: int, target: int, *, task_force_only: bool = True
) -> bool:
    """7.3.2.1 (engagement.hostile): whether house ``attacker`` considers house ``target``
    hostile: Enemy status; the target's Task Force threatens the attacker's colony here
    (orders 05–08, 12); it patrols here without a pact; or it engaged the attacker's forces in
    an earlier round of this combat. ``task_force_only``: judge the target's fleets that joined
    the combat (during combat), else every fleet present (before it, for detection).

    It depends on the setup and on three flags of the state only (joined, refused, engaged),
    so it is memoised by them."""
    if attacker == target:
        return False
    engaged = state.engaged >> (target * len(setup.houses) + attacker) & 1
    key = (attacker, target, task_force_only, state.joined, state.refused, engaged)
    memo = setup.hostility
    known = memo.get(key)
    if known is None:
        known = _regards_hostile(setup, state, attacker, target, task_force_only, bool(engaged))
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = known
    return known


def _regards_hostile(
    setup: Setup, state: State, attacker: int, target: int, task_force_only: bool, engaged: bool
) -> bool:
    fleets = [
        f.index
        for f in setup.fleets
        if f.house == target and (not task_force_only or state.joined >> f.index & 1)
    ]
    own = [f.index for f in setup.fleets if f.house == attacker]
    options = setup.options
    return hostile(
        setup.houses[attacker],
        setup.houses[target],
        status=setup.status(attacker, target),  # type: ignore[arg-type]
        target_fleets=[posture(setup, state, f) for f in fleets],
        controller=setup.houses[setup.controller] if setup.controller >= 0 else None,
        engaged_before=engaged,
        threat_hostility=options.threat_hostility,
        attacker_fleets=[posture(setup, state, f) for f in own],
        colonize_under_pact=options.colonize_under_pact,
    )


def hostile_houses(setup: Setup, state: State, house: int) -> tuple[int, ...]:
    return tuple(g for g in range(len(setup.houses)) if regards_hostile(setup, state, house, g))


class Candidates(NamedTuple):
    """A target selection's candidate pool (7.3.2.4 step 3) and weights (7.3.2.5)."""

    bucket: int
    units: tuple[int, ...]
    weights: tuple[int, ...]
    #: the units' ids, as the draw and the log name them
    labels: tuple[str, ...] = ()


def weight(setup: Setup, state: State, unit: int) -> int:
    """7.3.2.5 Base_Weight(bucket) × Unit_Size × Crippled_Modifier."""
    target = setup.units[unit]
    crippled = 2 if state.cond[unit] == CRIPPLED else 1
    return tables().bucket_weight[target.bucket] * target.size * crippled


def candidates(setup: Setup, state: State, attacker: int) -> Candidates | None:
    """The pool an attacker draws its target from, or None: no valid target (it does not
    attack this phase, 7.3.2.1 "No Valid Targets").

    It depends on the attacker's house and kind and on the units' conditions and three flags
    of the state (those of ``regards_hostile``), so it is memoised by them."""
    unit = setup.units[attacker]
    fighter = unit.kind == "fighter"
    key = (unit.house, fighter, state.cond, state.joined, state.refused, state.engaged)
    memo = setup.candidate_memo
    if key in memo:
        return memo[key]
    found = _candidates(setup, state, unit.house, fighter)
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = found
    return found


def _candidates(setup: Setup, state: State, house: int, fighter: bool) -> Candidates | None:
    hostile = hostile_houses(setup, state, house)
    if not hostile:
        return None
    pool = [u.index for u in setup.units if u.house in hostile and state.cond[u.index] in IN_BATTLE]
    if not pool:
        return None
    if fighter:
        fighters = [u for u in pool if setup.units[u].kind == "fighter"]
        if fighters:  # 7.3.2.3
            pool = fighters
    bucket = min(setup.units[u].bucket for u in pool)  # 7.3.2.4
    chosen = tuple(u for u in pool if setup.units[u].bucket == bucket)
    return Candidates(
        bucket,
        chosen,
        tuple(weight(setup, state, u) for u in chosen),
        tuple(setup.units[u].uid for u in chosen),
    )
