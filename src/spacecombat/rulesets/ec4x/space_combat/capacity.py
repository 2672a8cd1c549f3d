"""Fighter capacity (7.3.4 step 2 "Capacity Violation Checks: Evaluate colonies for fighter
capacity violations (only colony-owned fighters count toward capacity)"; 2.4.1, facts §3).

A colony may keep floor(PU / 100) x FD multiplier fighter squadrons (FD I 1.0, II 1.5, III 2.0;
a half squadron does not count: 4.5 allows 4), and needs one operational (not crippled)
starbase per 5 fighter squadrons, rounded up. A violation starts a 2-turn grace period the turn
after combat, so it changes nothing within the battle: it is checked at each casualty
assessment and reported (event ``capacity_checked``, the outcome's ``colony``). Without the
colony's ``pu`` only the starbase requirement is checked (ruling E61).
"""

from __future__ import annotations

import math
from fractions import Fraction

from spacecombat.core.events import Event, event
from spacecombat.rulesets.ec4x.setup import Setup
from spacecombat.rulesets.ec4x.state import ABSENT, DESTROYED, UNDAMAGED, State

#: facts §3: Fighter Doctrine I, II, III
FD_MULTIPLIER = {1: Fraction(1), 2: Fraction(3, 2), 3: Fraction(2)}
#: facts §3: "one operational (non-crippled) starbase per 5 FS, rounded up"
FIGHTERS_PER_STARBASE = 5
PU_PER_FIGHTER = 100


def capacity(pu: int, fd: int) -> int:
    """floor(PU / 100) x FD multiplier, whole squadrons only."""
    return math.floor((pu // PU_PER_FIGHTER) * FD_MULTIPLIER[fd])


def check(setup: Setup, state: State) -> dict[str, object] | None:
    """The colony's capacity now, or None: no colony here."""
    colony = setup.scenario.colony
    if colony is None:
        return None
    cond = state.cond
    units = [setup.units[u] for u in setup.colony_units]
    fighters = sum(1 for u in units if u.kind == "fighter" and cond[u.index] != DESTROYED)
    operational = sum(
        1
        for u in units
        if u.kind == "starbase"
        and (cond[u.index] == UNDAMAGED or (cond[u.index] == ABSENT and u.start == 0))
    )
    needed = math.ceil(fighters / FIGHTERS_PER_STARBASE)
    limit = None if colony.pu is None else capacity(colony.pu, colony.fd)
    violation = operational < needed or (limit is not None and fighters > limit)
    return {
        "colony": setup.scenario.system.name,
        "house": colony.owner,
        "fighters": fighters,
        "capacity": limit,
        "starbases_needed": needed,
        "starbases_operational": operational,
        "checked": ["starbases"] if limit is None else ["capacity", "starbases"],
        "violation": violation,
    }


def checked(setup: Setup, state: State) -> tuple[Event, ...]:
    """The ``capacity_checked`` event of a casualty assessment (none without a colony)."""
    found = check(setup, state)
    return () if found is None else (event("capacity_checked", **found),)
