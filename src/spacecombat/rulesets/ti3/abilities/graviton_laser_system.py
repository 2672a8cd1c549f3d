"""Graviton Laser System (TI3, yellow): "PDS get one re-roll for each missed combat roll"
(ti3-facts.md section 9; docs/rulings.md T5). The re-roll itself is made by the exchange that
rolls the PDS fire (procedures/exchange.py; cards/faulty_targeting_systems.py when that card
may be played).

Which dice it re-rolls (docs/rulings.md 27Y-11): the PDS's. A PDS fire where the Loncara Ssodu
(Xxcha flagship) fires too rolls two groups of dice; the flagship's are not re-rolled (the card
names PDS, as Magen Defense Grid and Maneuvering Jets, which do not reach the flagship's dice
either: 27R-20; PC_Twi GameEffects/techs/YellowTechEffect.cpp re-rolls the missed dice of units
of class PDS only)."""

from __future__ import annotations

from spacecombat.core.pool import DiceGroup, DicePool

#: the unit whose missed dice it re-rolls
PDS = "pds"


def rerolled(dice: DicePool) -> bool:
    """Whether a PDS fire pool has dice it re-rolls (a fire of the Loncara Ssodu alone has
    none)."""
    return any(group.unit == PDS for group in dice.groups)


def pds_group(dice: DicePool) -> DiceGroup:
    """The PDS's group of a PDS fire pool that has one."""
    (group,) = [group for group in dice.groups if group.unit == PDS]
    return group


def others(dice: DicePool) -> DicePool | None:
    """The groups of a PDS fire pool that are not the PDS's (the Loncara Ssodu's), or
    ``None``."""
    rest = tuple(group for group in dice.groups if group.unit != PDS)
    return DicePool(rest) if rest else None
