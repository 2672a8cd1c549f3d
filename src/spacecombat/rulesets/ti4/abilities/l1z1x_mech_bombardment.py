"""L1Z1X mech (Annihilator): while not participating in ground combat, it may use BOMBARDMENT
against planets in its system as if it were a ship (ti4-combat-effects.md §3;
data/units.toml: BOMBARDMENT 8).

A mech in the space area is not in a ground combat: in step 1 of the invasion it bombards with
its printed BOMBARDMENT like the ships (abilities/bombardment.py reads the card; it is among
the units the scenario may allot with ``bombarded_by``), and it is counted among the "ships"
of Harrow (harrow.py reads this handler; docs/rulings.md 14D2-8). A mech on a planet
never bombards (only the space area's units do). This handler has no hook of its own."""

from __future__ import annotations

from spacecombat.rulesets.ti4.abilities.base import Handler, register


@register
class L1z1xMechBombardment(Handler):
    id = "l1z1x_mech_bombardment"
