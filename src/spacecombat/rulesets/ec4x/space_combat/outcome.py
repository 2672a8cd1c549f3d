"""End of Space Combat (7.3.6): fighters re-embark or are lost with their carrier; what each
house keeps, lost and must repair.

The outcome::

    {"result": HOUSE | "shared" | "none" | "cancelled" | "cut_off", "rounds": N,
     "houses": {HOUSE: {"fate": "holds" | "retreated" | "destroyed" | "not_engaged",
                        "losses": PC lost, "survivors": {CODE: n}, "crippled": {CODE: n},
                        "repairs": 25% of the PC of crippled ships (an int, or "a/b")}},
     "colony": {...}}   # only with a colony: its fighter capacity at the end (capacity.py)
"""

from __future__ import annotations

from fractions import Fraction

from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.setup import MOVEMENT_ORDERS, Setup
from spacecombat.rulesets.ec4x.space_combat import capacity
from spacecombat.rulesets.ec4x.space_combat.pre_combat import present, undetected
from spacecombat.rulesets.ec4x.space_combat.rounds import scouts_gone
from spacecombat.rulesets.ec4x.space_combat.targeting import order_of
from spacecombat.rulesets.ec4x.state import (
    ABSENT,
    CRIPPLED,
    DESTROYED,
    GONE_CRIPPLED,
    GONE_UNDAMAGED,
    IN_BATTLE,
    State,
)
from spacecombat.rulesets.ec4x.tables import tables

#: 7.3.6 "Crippled ships require shipyard repairs (1 turn, 25% of PC)"
REPAIR_SHARE = Fraction(1, 4)


def reembark(setup: Setup, state: State) -> tuple[State, tuple[Event, ...]]:
    """7.3.1.2 Carrier-Owned Fighter Post-Combat: fighters re-embark on a surviving carrier;
    "If carrier destroyed: all carrier-owned fighters destroyed"."""
    cond = list(state.cond)
    events: list[Event] = []
    for u in setup.units:
        if u.kind != "fighter" or u.carrier < 0 or cond[u.index] not in IN_BATTLE:
            continue
        if cond[u.carrier] == DESTROYED:
            cond[u.index] = DESTROYED
            events.append(
                event(
                    "unit_destroyed",
                    unit=u.uid,
                    house=setup.houses[u.house],
                    ships=list(u.ships),
                    reason="its carrier was destroyed (7.3.1.2)",
                )
            )
    if any(
        u.kind == "fighter" and u.carrier >= 0 and cond[u.index] in IN_BATTLE for u in setup.units
    ):
        events.append(event("fighters_reembarked"))
    return state.at(state.stage, cond=tuple(cond)), tuple(events)


def engaged(setup: Setup, state: State, house: int) -> bool:
    if any(f.house == house and state.joined >> f.index & 1 for f in setup.fleets):
        return True
    return house == setup.controller and bool(state.joined >> setup.colony_group & 1)


def _passed(setup: Setup, state: State, fleet: int) -> bool:
    return order_of(setup, state, fleet) in MOVEMENT_ORDERS and undetected(setup, state, fleet)


def in_system(setup: Setup, state: State, house: int) -> bool:
    """Whether the house still has anything in the system at the end: units fighting on, its
    colony's starbases and fighters not destroyed (engaged or not: they never leave, ruling
    E53), fleets that stayed out, or screened ships left."""
    if any(state.cond[u.index] in IN_BATTLE for u in setup.units if u.house == house):
        return True
    if house == setup.controller and any(state.cond[u] != DESTROYED for u in setup.colony_units):
        return True
    for f in setup.fleets:
        if f.house != house or _passed(setup, state, f.index):
            continue
        if not state.joined >> f.index & 1:
            return True
        if state.screened_lost >> house & 1:
            continue
        if f.spacelift and not state.spacelift_left >> house & 1:
            return True
        if f.scouts and f.scout_unit < 0 and not scouts_gone(state, f):
            return True
    return False


def outcome(setup: Setup, state: State) -> dict[str, object]:
    classes = tables().classes
    houses: dict[str, object] = {}
    holding: list[str] = []
    for h, name in enumerate(setup.houses):
        if not present(setup, h):
            continue
        survivors: dict[str, int] = {}
        crippled: dict[str, int] = {}
        losses = 0
        repairs = Fraction(0)
        for u in setup.units:
            if u.house != h:
                continue
            c = state.cond[u.index]
            for code in u.ships:
                if c == DESTROYED:
                    losses += classes[code].pc
                    continue
                survivors[code] = survivors.get(code, 0) + 1
                if c in (CRIPPLED, GONE_CRIPPLED) or (c == ABSENT and u.start):
                    crippled[code] = crippled.get(code, 0) + 1
                    repairs += classes[code].pc * REPAIR_SHARE
        lost_screened = bool(state.screened_lost >> h & 1)
        for f in setup.fleets:
            if f.house != h:
                continue
            # screened ships lost (7.2) are those still here when the house lost its escort:
            # not spacelift ships or scouts that had left with its retreat
            here = lost_screened and bool(state.joined >> f.index & 1)
            spacelift_here = here and not state.spacelift_left >> h & 1
            scouts_here = here and not scouts_gone(state, f)
            extra = [(code, spacelift_here) for code, n in f.spacelift for _ in range(n)]
            if f.scout_unit < 0:  # targetable scouts are a unit, counted above (E58)
                extra += [("SC", scouts_here)] * len(f.scouts)
            for code, lost in extra:
                if lost:
                    losses += classes[code].pc
                else:
                    survivors[code] = survivors.get(code, 0) + 1
        if not engaged(setup, state, h):
            fate = "not_engaged"
        elif state.retreated >> h & 1:
            fate = "retreated"
        elif any(state.cond[u.index] in IN_BATTLE for u in setup.units if u.house == h):
            fate = "holds"
        else:
            fate = "destroyed"
        if in_system(setup, state, h):
            holding.append(name)
        houses[name] = {
            "fate": fate,
            "losses": losses,
            "survivors": survivors,
            "crippled": crippled,
            "repairs": int(repairs) if repairs.denominator == 1 else str(repairs),
        }
    if state.result:
        result = state.result
    elif len(holding) == 1:
        result = holding[0]
    else:
        result = "shared" if holding else "none"
    found: dict[str, object] = {"result": result, "rounds": state.round, "houses": houses}
    colony = capacity.check(setup, state)
    if colony is not None:
        # 7.3.4 step 2: whether the colony ends the battle in violation (ruling E61)
        found["colony"] = colony
    return found


__all__ = ["GONE_UNDAMAGED", "outcome", "reembark"]
