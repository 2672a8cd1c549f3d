"""Mentak mech (Moll Terminus): other players' ground forces on its planet cannot use SUSTAIN
DAMAGE (data/units.toml; ti4-combat-effects.md, mechs). It acts while one of the Mentak's mechs
is on the planet where the opponent's ground forces are assigned hits: in ground combat, and
against space cannon defense hits on ground forces committed to a planet the Mentak's mech
defends (docs/rulings.md 14A-2). Bombardment hits fall before the invader's ground
forces land, so an invading Mentak mech is not yet on the planet then. As for the Mentak
flagship, a mech there when an Assign Hits step begins forbids SUSTAIN DAMAGE for the whole
step (14A-1)."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import INVASION_ONLY, register
from spacecombat.rulesets.ti4.abilities.no_enemy_sustain import NoEnemySustain


@register
class MentakMechNoEnemySustain(NoEnemySustain):
    id = "mentak_mech_no_enemy_sustain"
    battles = INVASION_ONLY  # it forbids ground forces on its planet their SUSTAIN DAMAGE (24AJ-1)
    unit = "mech"
    in_space = False
