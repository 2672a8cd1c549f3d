"""TI3 political cards in force that change a battle's dice, one class each
(data/political_cards.toml; docs/rulings.md 27Z). A law's handler is owned by the player it
elects, or by no one (``None``) when it reaches every player."""

from __future__ import annotations

from spacecombat.rulesets.ti3.abilities.base import (
    GROUND_FORCES,
    Handler,
    Marker,
    RollContext,
    RollKind,
)

#: the units Unconventional Weapons names (a flagship is neither: 27Z-3)
_WARSHIPS = ("war_sun", "dreadnought")


class UnconventionalWeapons(Handler):
    """Unconventional Weapons (For): every war sun and dreadnought -2 on all its combat rolls,
    whoever owns it (27Z-3; "all combat rolls" as T4)."""

    id = "unconventional_weapons"

    def modifier(self, roll: RollContext) -> int:
        return -2 if roll.unit in _WARSHIPS and roll.kind.is_combat_roll else 0


class CrownOfThalnos(Handler):
    """The Crown of Thalnos: the elected player's ground forces +1 in invasion combat (27Z-4)."""

    id = "crown_of_thalnos"

    def modifier(self, roll: RollContext) -> int:
        return int(
            self.mine(roll) and roll.kind is RollKind.INVASION_COMBAT and roll.unit in GROUND_FORCES
        )


class PublicExecution(Handler):
    """Public Execution: the elected player -1 on all combat rolls until the end of the game
    round (27Z-5; "all combat rolls" as T4). The cards it discards: setup refuses a hand."""

    id = "public_execution"

    def modifier(self, roll: RollContext) -> int:
        return -int(self.mine(roll) and roll.kind.is_combat_roll)


class CodeOfHonor(Marker):
    """Code of Honor (For): no fleet may withdraw or retreat from a space battle (27Z-9). Set-up
    gives the battle no system to move to (``leaving_systems``); procedures read nothing else."""

    id = "code_of_honor"


class ConventionsOfWar(Marker):
    """Conventions of War (For): dreadnoughts and war suns may not bombard a planet with a space
    dock (27Z-10). Set-up takes them out of such a planet's bombardment
    (``laws.restrict_bombardment``)."""

    id = "conventions_of_war"


class MinisterOfWar(Marker):
    """Minister of War: before a space battle, the elected player may spend a command counter of
    its strategy allocation to inflict 1 hit on the enemy fleet (27M-1). A pre-combat step
    (procedures/minister_of_war.py), which the defender orders with the others."""

    id = "minister_of_war"


#: the law handlers by id (the ``handler`` named in data/political_cards.toml)
LAW_HANDLERS: dict[str, type[Handler]] = {
    cls.id: cls
    for cls in (
        UnconventionalWeapons,
        CrownOfThalnos,
        PublicExecution,
        CodeOfHonor,
        ConventionsOfWar,
        MinisterOfWar,
    )
}
