"""Combat Effectiveness Rating (7.3.3): the d10, its modifiers, criticals and hits.

- "Each squadron rolls once for CER and applies CER × (sum of all ships' AS in squadron)";
  hits are rounded up ("One Quarter (0.25) (round up)").
- Modifiers: Scouts +1 once per Task Force; morale −1..+2 (7.1.4), and +1 for the one random
  squadron of a successful Average check; Ambush +4 (undetected raiders, 7.3.1.1) or Surprise +3
  for the side that won initiative (ruling E42; option ``surprise: never``: Ambush +4 for it
  too), "First round only", "Phase 1 only"; Starbase +2 (7.4).
- "If the die roll is a natural nine before any required modification, then a critical hit is
  achieved" (on either reading of the die, ruling E32).

Critical hits, all their parts: the natural 9 here; the morale auto-critical (7.1.4,
``morale.py``, spent in ``rounds.py``); the starbase's re-roll of a critical (7.4 Critical Hit
Protection, ``rounds.py``); what a critical does to Destruction Protection and force reduction
(7.3.3, ``damage.py``); the ground batteries' critical against a bombarding fleet (7.5.3,
``planetary/bombardment.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache

from spacecombat.core.engine import Draw, Step
from spacecombat.rulesets.ec4x.setup import Setup
from spacecombat.rulesets.ec4x.space_combat.pre_combat import house_morale
from spacecombat.rulesets.ec4x.state import CRIPPLED, IN_BATTLE, State
from spacecombat.rulesets.ec4x.tables import space_cer

NATURAL_CRITICAL = 9
SCOUTS = 1
AMBUSH = 4
SURPRISE = 3
STARBASE = 2


def die_first(setup: Setup) -> int:
    """The lowest face of the CER d10 (option cer_die)."""
    return 0 if setup.options.cer_die == "0-9" else 1


#: the CER d10 by its lowest face: labels, weights and faces (as ``Draw.die`` makes them)
_D10 = {
    first: (
        tuple(str(face) for face in range(first, first + 10)),
        (1,) * 10,
        tuple(range(first, first + 10)),
    )
    for first in (0, 1)
}


def die(setup: Setup, player: str, purpose: str, then: Callable[[int], Step[State]]) -> Draw[State]:
    """The CER d10 draw (``Draw.die(player, purpose, 10, then, first=die_first(setup))``, its
    faces made once)."""
    labels, weights, faces = _D10[die_first(setup)]
    return Draw(player, purpose, "d10", labels, weights, faces, then)


def has_scouts(setup: Setup, state: State, house: int) -> bool:
    """7.3.3 Scouts: "Maximum benefit for all Scouts in Task Force"; lost with the fleets that
    carry them ("the Task Force loses their associated die roll modifiers")."""
    if state.screened_lost >> house & 1:
        return False
    cond = state.cond
    retreated = state.retreated >> house & 1
    for f in setup.scout_fleets[house]:
        if not state.joined >> f.index & 1:
            continue
        if f.scout_unit >= 0:
            # targetable scouts (E58): "Destroyed squadrons ... the Task Force loses their
            # associated die roll modifiers (e.g. Scouts)"
            if cond[f.scout_unit] in IN_BATTLE:
                return True
            continue
        if retreated and not state.stranded >> f.index & 1:
            continue  # its scouts left with the retreat (7.3.5)
        if not f.units or any(cond[u] in IN_BATTLE for u in f.units):
            return True
    return False


def modifiers(setup: Setup, state: State, unit: int, phase: int) -> list[tuple[str, int]]:
    """The named modifiers of a unit's CER roll in ``phase`` of the current round."""
    u = setup.units[unit]
    found: list[tuple[str, int]] = []
    if has_scouts(setup, state, u.house):
        found.append(("scouts", SCOUTS))
    morale = house_morale(setup, state, u.house)
    if morale.all_cer:
        found.append(("morale", morale.all_cer))
    if morale.boosted == unit and morale.one_cer:
        found.append(("morale_squadron", morale.one_cer))
    if phase == 1 and state.round == 1:
        if state.initiative >= 0 and setup.options.surprise == "defender_initiative":
            found.append(("surprise", SURPRISE))
        else:
            found.append(("ambush", AMBUSH))
    if u.kind == "starbase":
        found.append(("starbase", STARBASE))
    return found


def attack_strength(setup: Setup, state: State, unit: int) -> int:
    """A unit's AS now: halved, rounded up, when crippled (7.1.2, 7.3.3; rulings E23, E31)."""
    u = setup.units[unit]
    basis = state.as_cond if state.as_cond else state.cond
    return u.attack_crippled if basis[unit] == CRIPPLED else u.attack


def hits(cer: Fraction, strength: int) -> int:
    """CER × AS, rounded up (7.3.3)."""
    return math.ceil(cer * strength)


def rating(natural: int, total_modifier: int) -> Fraction:
    return space_cer(natural + total_modifier)


@cache
def result(modified: int, strength: int) -> tuple[str, int]:
    """The CER of a modified roll (as logged) and its hits at AS ``strength`` (memoised)."""
    cer = space_cer(modified)
    return str(cer), hits(cer, strength)
