"""Abilities that change the dice of a roll, one class each (ti3-facts.md sections 4.4, 9, 10)."""

from __future__ import annotations

from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES, Handler, RollContext, RollKind


class HylarVAssaultLaser(Handler):
    """Cruisers and destroyers +1 on all combat rolls, anti-fighter barrage included."""

    id = "hylar_v_assault_laser"

    def modifier(self, roll: RollContext) -> int:
        ships = ("cruiser", "destroyer")
        return int(self.mine(roll) and roll.unit in ships and roll.kind.is_combat_roll)


class AutomatedDefenseTurrets(Handler):
    """Destroyers +2 and one extra die in anti-fighter barrage."""

    id = "automated_defense_turrets"

    def _applies(self, roll: RollContext) -> bool:
        return (
            self.mine(roll)
            and roll.unit == "destroyer"
            and roll.kind is RollKind.ANTI_FIGHTER_BARRAGE
        )

    def modifier(self, roll: RollContext) -> int:
        return 2 if self._applies(roll) else 0

    def extra_dice(self, roll: RollContext) -> int:
        return 1 if self._applies(roll) else 0


class MagenDefenseGrid(Handler):
    """PDS +1; the owner's ground forces defending a planet with its PDS +1 in invasion
    combat."""

    id = "magen_defense_grid"

    def modifier(self, roll: RollContext) -> int:
        if not self.mine(roll):
            return 0
        if roll.kind in (RollKind.PDS_FIRE, RollKind.PDS_FIRE_AT_LANDING):
            return int(roll.unit == "pds")  # PDS, not a flagship firing with them (27R-20)
        return int(
            roll.kind is RollKind.INVASION_COMBAT
            and roll.defending
            and roll.planet_has_own_pds
            and roll.unit in GROUND_FORCES
        )


class Cybernetics(Handler):
    """Fighters +1."""

    id = "cybernetics"

    def modifier(self, roll: RollContext) -> int:
        return int(self.mine(roll) and roll.fighter and roll.kind.is_combat_roll)


class AdvancedFighters(Cybernetics):
    """Fighters +1 (and fighters beyond capacity count against fleet supply: fleet check)."""

    id = "advanced_fighters"


class GenSynthesis(Handler):
    """Ground forces +1 in invasion combat."""

    id = "gen_synthesis"

    def modifier(self, roll: RollContext) -> int:
        return int(
            self.mine(roll) and roll.kind is RollKind.INVASION_COMBAT and roll.unit in GROUND_FORCES
        )


class ManeuveringJets(Handler):
    """Enemy PDS fire at the owner's ships -1 (-2 from an adjacent system: never here, as a
    scenario holds only the active system's PDS)."""

    id = "maneuvering_jets"

    def modifier(self, roll: RollContext) -> int:
        # enemy PDS, not a flagship firing with them (27R-20)
        return -int(
            roll.roller is not self.owner and roll.kind is RollKind.PDS_FIRE and roll.unit == "pds"
        )


class Sardakk(Handler):
    """Sardakk N'orr: all combat rolls +1."""

    id = "sardakk"

    def modifier(self, roll: RollContext) -> int:
        return int(self.mine(roll) and roll.kind.is_combat_roll)


class JolNar(Handler):
    """The Universities of Jol-Nar: all combat rolls -1."""

    id = "jolnar"

    def modifier(self, roll: RollContext) -> int:
        return -int(self.mine(roll) and roll.kind.is_combat_roll)


class L1z1x(Handler):
    """L1Z1X: dreadnoughts +1 on combat rolls; ground forces +1 in invasion combat."""

    id = "l1z1x"

    def modifier(self, roll: RollContext) -> int:
        if not self.mine(roll) or not roll.kind.is_combat_roll:
            return 0
        if roll.unit == "dreadnought":
            return 1
        return int(roll.kind is RollKind.INVASION_COMBAT and roll.unit in GROUND_FORCES)


class Naalu(Handler):
    """Naalu: fighters +1 in space battles."""

    id = "naalu"

    def modifier(self, roll: RollContext) -> int:
        space = roll.kind in (RollKind.SPACE_COMBAT, RollKind.PRE_COMBAT_SHOT)
        return int(self.mine(roll) and roll.fighter and space)


class Xxcha(Handler):
    """Xxcha: the opponent gets -1 on combat rolls in the first round of every space battle
    and invasion combat."""

    id = "xxcha"

    def modifier(self, roll: RollContext) -> int:
        rounds = (RollKind.SPACE_COMBAT, RollKind.INVASION_COMBAT)
        return -int(roll.roller is not self.owner and roll.kind in rounds and roll.round == 1)


class Nebula(Handler):
    """A nebula: the defender's ships +1 in a space battle there (ti3-facts.md 4.4)."""

    id = "nebula"

    def modifier(self, roll: RollContext) -> int:
        space = roll.kind in (
            RollKind.SPACE_COMBAT,
            RollKind.PRE_COMBAT_SHOT,
            RollKind.ANTI_FIGHTER_BARRAGE,
        )
        return int(roll.defending and roll.in_nebula and space)
