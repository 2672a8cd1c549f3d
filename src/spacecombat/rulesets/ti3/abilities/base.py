"""TI3 ability handlers: one small class per ability.

A handler answers two questions about a roll (``RollContext``): the modifier it adds to each
die (``modifier``, +1 meaning the die hits one face lower) and the extra dice it gives each unit
(``extra_dice``). Abilities that add a whole step to the battle (Assault Cannon, Mentak's
ambush, Duranium Armor, Graviton Laser System, X-89, Dacxive Animators, Graviton Negator)
are handlers without modifiers that the procedures look up by ``id``; their behaviour lives in
their own module beside this one. Handlers are pure values.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from spacecombat.core.sides import Side


class RollKind(StrEnum):
    """The kinds of roll in a TI3 battle."""

    PDS_FIRE = "pds_fire"
    ANTI_FIGHTER_BARRAGE = "anti_fighter_barrage"
    PRE_COMBAT_SHOT = "pre_combat_shot"
    SPACE_COMBAT = "space_combat"
    BOMBARDMENT = "bombardment"
    PDS_FIRE_AT_LANDING = "pds_fire_at_landing"
    INVASION_COMBAT = "invasion_combat"

    @property
    def is_combat_roll(self) -> bool:
        """Rolls that "all combat rolls" modifiers reach: the rolls of the space battle
        (pre-combat shots and anti-fighter barrage included) and of invasion combat rounds,
        not PDS fire or bombardment (docs/rulings.md T4)."""
        return self in (
            RollKind.ANTI_FIGHTER_BARRAGE,
            RollKind.PRE_COMBAT_SHOT,
            RollKind.SPACE_COMBAT,
            RollKind.INVASION_COMBAT,
        )


#: Unit types that are "ground forces" for effects naming them (Mechanized Units are immune to
#: those: ti3-facts.md section 8).
GROUND_FORCES = ("ground_force", "shock_troop")


@dataclass(frozen=True)
class RollContext:
    """One group of dice about to be rolled."""

    kind: RollKind
    roller: Side
    unit: str
    #: combat round (0 before the first)
    round: int = 0
    #: the roller is the defender of the battle
    defending: bool = False
    #: invasion: the planet fought over holds a PDS of the roller
    planet_has_own_pds: bool = False
    #: the space battle is in a nebula
    in_nebula: bool = False
    #: the roller's flagship is in the system's space area (read only for a side whose
    #: flagship's ability needs it: abilities/races.py)
    own_flagship: bool = False
    #: the units fight as fighters without being fighters (Van Hauge's ground forces: docs/
    #: rulings.md 27T-12)
    as_fighter: bool = False

    @property
    def fighter(self) -> bool:
        """Whether the dice are fighters' (fighters, or units fighting as fighters): the rules
        that read "fighters" reach them (27T-12)."""
        return self.unit == "fighter" or self.as_fighter


class Handler:
    """An ability in play, owned by ``owner`` (``None``: the system)."""

    id: ClassVar[str]

    def __init__(self, owner: Side | None) -> None:
        self.owner = owner

    def modifier(self, roll: RollContext) -> int:
        """Added to each die of the roll."""
        return 0

    def extra_dice(self, roll: RollContext) -> int:
        """Extra dice for each unit of the roll."""
        return 0

    def mine(self, roll: RollContext) -> bool:
        """The roll is the owner's."""
        return roll.roller is self.owner

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.owner})"


class Marker(Handler):
    """An ability whose behaviour is a procedure step; procedures look it up by ``id``."""
