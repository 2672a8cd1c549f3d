"""Planetary Blitz (7.6.2): "Fleets and Ground batteries conduct one round of combat in
accordance with Section 7.5, with the exception that ground units and civilian infrastructure
are not targeted" (``bombardment.py``, mission ``blitz``). "Troop transports are included as
individual units within the attacking player's fleet and may be destroyed on their way down
to the surface by Ground Batteries" (``bombardment.fleet_damage`` takes them first).

"Because of quick insertion and Ground Battery evasion, surviving Marines that manage to land
in their troop transports multiply AS by 0.5 (rounding up)": each loaded transport still
standing lands its division, crippled if the transport was crippled (7.1.2: a unit's state is
that of its carrier; ruling E63). Ground combat as in an invasion (``invasion.py``), but the
batteries never stop the landing and the shields and spaceports are not destroyed; on conquest
"All remaining planet assets are seized by the invading House, including IU, shields,
spaceports, and ground batteries", and no IU is destroyed.
"""

from __future__ import annotations

import math

from spacecombat.core.engine import Step
from spacecombat.core.events import event
from spacecombat.rulesets.ec4x.planetary.colony import half
from spacecombat.rulesets.ec4x.planetary.siege import Assault, Siege, Stage, describe
from spacecombat.rulesets.ec4x.planetary.tables import planetary
from spacecombat.rulesets.ec4x.state import CRIPPLED, UNDAMAGED


def landed_attack(assault: Assault) -> tuple[int, int]:
    """A landed division's AS, undamaged and crippled. Option ``blitz_marine_as`` (ruling E66):
    ``stacked``: the blitz's halving and crippling both apply (6 → 3, crippled 2);
    ``once``: a landed division fights at half AS whether crippled or not (3 and 3)."""
    marine = planetary().units["MD"].attack
    landed = math.ceil(marine * planetary().blitz_marine_as)
    if assault.readings.blitz_marine_as == "once":
        return landed, landed
    return landed, half(landed)


def land(assault: Assault, siege: Siege) -> Step[Siege]:
    """The surviving loaded transports land their divisions, batteries or not."""
    undamaged = crippled = 0
    for s, c in zip(assault.strikers, siege.cond, strict=True):
        if s.kind != "transport" or not s.marines:
            continue
        if c == UNDAMAGED:
            undamaged += s.marines
        elif c == CRIPPLED:
            crippled += s.marines
    total = undamaged + crippled
    if not total:
        return Step(
            siege.at(Stage.DONE, result="failed", rolls=()),
            (event("invasion_failed", reason="no marines landed: every loaded transport lost"),),
        )
    attack, attack_crippled = landed_attack(assault)  # as invasion.invader_strength in a blitz
    return Step(
        siege.at(
            Stage.GROUND_END, landed=(undamaged, crippled), landed_total=total, round=0, rolls=()
        ),
        (
            event(
                "marines_landed",
                house=assault.attacker,
                marines=[undamaged, crippled],
                strength=undamaged * attack + crippled * attack_crippled,
                destroyed={},
            ),
        ),
    )


def seize(assault: Assault, siege: Siege) -> Step[Siege]:
    """7.6.2: every remaining asset changes hands intact; no IU destroyed."""
    after = siege.colony.at(owner=assault.attacker)
    return Step(
        siege.at(Stage.DONE, colony=after, result="conquered", rolls=(), round=0),
        (
            event(
                "colony_conquered",
                house=assault.attacker,
                previous=siege.colony.owner,
                iu_destroyed=0,
                seized=True,
                colony=describe(after),
            ),
        ),
    )
