"""Mentak flagship (Fourth Moon): other players' ships in its system cannot use SUSTAIN DAMAGE
(data/units.toml; ti4-combat-effects.md, flagships). It acts while the flagship is in the
system's space area, against every hit assigned to the opponent's ships there (space cannon
offense, combat rounds): once the flagship is destroyed, the opponent's ships may sustain
damage again. SUSTAIN DAMAGE is used before hits are assigned (ti4-space-combat.md step 4.1),
so a flagship in the system when an Assign Hits step begins forbids it for the whole step,
even when the owner's own assignment, made first, destroys it (docs/rulings.md
14A-1): the owner notes it (the round's ``boosts``) before assigning."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import register
from spacecombat.rulesets.ti4.abilities.no_enemy_sustain import NoEnemySustain


@register
class MentakFlagshipNoEnemySustain(NoEnemySustain):
    id = "mentak_flagship_no_enemy_sustain"
    unit = "flagship"
    in_space = True
    #: on its owner's path it takes hit points from the other side; on the other's, the owner
    #: never hits, and it reaches only a unit another effect's hit reached (24AF-1)
    never_stalls_on = frozenset({"owner", "other"})
