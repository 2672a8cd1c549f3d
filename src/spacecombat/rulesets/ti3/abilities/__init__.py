"""TI3 ability handlers by id (the ``handler`` named in the data files)."""

from __future__ import annotations

from spacecombat.rulesets.ti3.abilities import markers, modifiers, nano_technology, races
from spacecombat.rulesets.ti3.abilities.base import Handler

HANDLERS: dict[str, type[Handler]] = {
    cls.id: cls
    for cls in (
        modifiers.HylarVAssaultLaser,
        modifiers.AutomatedDefenseTurrets,
        modifiers.MagenDefenseGrid,
        modifiers.Cybernetics,
        modifiers.AdvancedFighters,
        modifiers.GenSynthesis,
        modifiers.ManeuveringJets,
        modifiers.Sardakk,
        modifiers.JolNar,
        modifiers.L1z1x,
        modifiers.Naalu,
        modifiers.Xxcha,
        modifiers.Nebula,
        markers.AssaultCannon,
        markers.Mentak,
        markers.DuraniumArmor,
        markers.GravitonLaserSystem,
        markers.GravitonNegator,
        markers.X89BacterialWeapon,
        markers.DacxiveAnimators,
        nano_technology.NanoTechnology,
    )
}
# the races' abilities, racial technologies and flagships (issue 27)
HANDLERS.update({cls.id: cls for cls in races.RACE_HANDLERS})
