"""Abilities that add a step to the battle. Each is a marker the procedures look up by id; the
step itself is in the module named in each docstring."""

from __future__ import annotations

from spacecombat.rulesets.ti3.abilities.base import Marker


class AssaultCannon(Marker):
    """Each dreadnought fires one shot before the space battle (procedures/pre_combat.py)."""

    id = "assault_cannon"


class Mentak(Marker):
    """Up to 2 cruisers and/or destroyers fire one shot each before the space battle
    (procedures/pre_combat.py)."""

    id = "mentak"


class DuraniumArmor(Marker):
    """Repair one damaged unit at the end of each combat round (abilities/duranium_armor.py)."""

    id = "duranium_armor"


class GravitonLaserSystem(Marker):
    """Re-roll each missed PDS die once (procedures/pds_fire.py)."""

    id = "graviton_laser_system"


class GravitonNegator(Marker):
    """Dreadnoughts bombard planets with enemy PDS (procedures/invasion.py); the attacker's
    fighters may join invasion combat and return to space after it
    (abilities/graviton_negator.py; docs/rulings.md 27Y-1 to 27Y-6)."""

    id = "graviton_negator"


class X89BacterialWeapon(Marker):
    """Bombardment may instead destroy every enemy ground force (procedures/invasion.py)."""

    id = "x89_bacterial_weapon"


class DacxiveAnimators(Marker):
    """After winning an invasion combat, new ground forces on 6+ (procedures/invasion.py)."""

    id = "dacxive_animators"
