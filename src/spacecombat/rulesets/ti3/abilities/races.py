"""The races' combat abilities, racial technologies and flagships added by issue 27 (Shards of
the Throne flagships, Shattered Empire racial technologies), one class each. Sources: the race
sheets as ``wiki.omf2097.com`` (joneirik:rpg:ti3_races) transcribes them, and the TI3 engine
Tirvy/PC_Twi (``PC_Twilight/Defines.cpp`` FMstats, ``UnitAbility.cpp`` FlagshipAbilities,
``GameEffects/races/r_*.cpp``); docs/rulings.md 27R.

Modifiers act here (``modifier``); the others are markers that the procedure named in each
docstring looks up by id."""

from __future__ import annotations

from spacecombat.rulesets.ti3.abilities.base import (
    GROUND_FORCES,
    Handler,
    Marker,
    RollContext,
    RollKind,
)

#: the unit a scenario names for a side's flagship
FLAGSHIP = "flagship"


class LetnevFleetSupply(Marker):
    """The Barony of Letnev: its fleets may hold one more ship than its fleet supply counters
    (procedures/fleet_check.py)."""

    id = "letnev_fleet_supply"


class L4Disruptors(Handler):
    """L4 Disruptors (Letnev): the racial ability costs no trade goods in ground combat, so the
    owner's ground forces get +2 in every invasion combat round (docs/rulings.md 27R-4). A
    Mechanized Unit is immune to effects that name ground forces (ti3-facts.md section 8)."""

    id = "l4_disruptors"

    def modifier(self, roll: RollContext) -> int:
        applies = roll.kind is RollKind.INVASION_COMBAT and roll.unit in GROUND_FORCES
        return 2 if self.mine(roll) and applies else 0


class NoneuclidianShielding(Marker):
    """Noneuclidian Shielding (Letnev): a unit that uses SUSTAIN DAMAGE cancels two hits rather
    than one (procedures/common.py ``remove_casualties``; docs/rulings.md 27R-11)."""

    id = "noneuclidian_shielding"


class MarkIIAdvancedCarriers(Marker):
    """Mark II Advanced Carriers (Sol): the owner's carriers carry 8 and have SUSTAIN DAMAGE
    (the side's carrier card, setup.py; docs/rulings.md 27R-12)."""

    id = "mark_ii_advanced_carriers"


class FloatingFactories(Marker):
    """Floating Factories (Saar): the owner's space docks support 5 fighters rather than 3
    (procedures/fleet_check.py; docs/rulings.md 27R-13)."""

    id = "floating_factories"


class SardakkFlagship(Handler):
    """C'morran N'orr (Sardakk N'orr flagship): while it is in the battle, the owner's ships
    get +1 on their combat rolls in the rounds of a space battle (docs/rulings.md 27R-5)."""

    id = "sardakk_flagship"

    def modifier(self, roll: RollContext) -> int:
        applies = roll.kind is RollKind.SPACE_COMBAT and roll.own_flagship
        return int(self.mine(roll) and applies)


class JolnarFlagship(Marker):
    """J.N.S. Hylarim (Jol-Nar flagship): each of its combat dice rolling a natural 10 produces
    3 hits (procedures/common.py ``pool``; docs/rulings.md 27R-7)."""

    id = "jolnar_flagship"

    #: the natural face that produces the extra hits, and how many more than the one
    FACE = 10
    EXTRA_HITS = 2


class WinnuFlagship(Marker):
    """Salai Sai Corian (Winnu flagship): it rolls one combat die for each non-fighter ship the
    opponent has in the system (procedures/common.py ``pool``; docs/rulings.md 27R-10)."""

    id = "winnu_flagship"


class MentakFlagship(Marker):
    """Fourth Moon (Mentak flagship): while the owner attacks with it in the system, the
    defender's units cannot use SUSTAIN DAMAGE in the space battle (procedures/common.py
    ``remove_casualties``; docs/rulings.md 27R-6)."""

    id = "mentak_flagship"


class SolFlagship(Marker):
    """Genesis (Sol flagship): it carries any number of ground forces (procedures/
    fleet_check.py; docs/rulings.md 27R-8)."""

    id = "sol_flagship"


class NaaluFlagship(Marker):
    """Matriarch (Naalu flagship): while it is in the fleet, the owner's fleet supply is 3
    larger (procedures/fleet_check.py; docs/rulings.md 27R-8)."""

    id = "naalu_flagship"


class YinFlagship(Marker):
    """Van Hauge (Yin flagship): its owner's ground forces and shock troops in space may fight
    as fighters until the battle ends or it is destroyed (abilities/van_hauge.py; docs/rulings.md
    27S-43); those on the system's planets: refused by name (setup.py)."""

    id = "yin_flagship"


class L1z1xFlagship(Marker):
    """[0.0.1] (L1Z1X flagship): its and the owner's dreadnoughts' hits in the combat rounds go
    on non-fighter ships (abilities/l1z1x_flagship.py; docs/rulings.md 27S-9)."""

    id = "l1z1x_flagship"


class ValkyrieArmor(Marker):
    """Valkyrie Armor (Sardakk N'orr): at the end of each invasion combat round, a die per
    casualty taken, each 10 a casualty for the opponent (abilities/valkyrie_armor.py;
    docs/rulings.md 27S-10)."""

    id = "valkyrie_armor"


class Exotrireme(Marker):
    """Exotrireme (Sardakk N'orr): before round 2 of a space battle, a dreadnought may be given
    up to destroy two enemy non-fighter ships (abilities/exotrireme.py; docs/rulings.md
    27S-14)."""

    id = "exotrireme"


class DimensionalSplicers(Marker):
    """Dimensional Splicers (Ghosts of Creuss): at the start of a space battle in a system with
    a wormhole, the owner may assign 1 hit to an enemy ship of its choice
    (abilities/dimensional_splicers.py; docs/rulings.md 27S-33)."""

    id = "dimensional_splicers"


class SpecOpsTraining(Marker):
    """Spec Ops Training (Federation of Sol): each die of the owner's invasion combat rolls
    that rolls a 1 (and misses) is re-rolled once, the second result kept
    (procedures/exchange.py; docs/rulings.md 27S-35)."""

    id = "spec_ops_training"


class NekroFlagship(Marker):
    """The Alastor (Nekro Virus flagship): when it is destroyed while its owner defends, every
    unit in the system's space area, both players', is destroyed (abilities/alastor.py;
    docs/rulings.md 27S-8)."""

    id = "nekro_flagship"


class LetnevFlagship(Marker):
    """Arc Secundus (Letnev flagship): it repairs itself at the end of each combat round
    (procedures/space_battle.py ``end_of_round``) and bombards through the planetary shield
    (setup.py ``_can_bombard``; docs/rulings.md 27R-18)."""

    id = "letnev_flagship"


class HybridCrystalDrives(Marker):
    """Hybrid Crystal Drives (Naalu): carriers and unsupported Advanced Fighters count half a
    ship each against fleet supply, rounded up (procedures/fleet_check.py; 27R-21)."""

    id = "hybrid_crystal_drives"


class XxchaFlagship(Marker):
    """Loncara Ssodu (Xxcha flagship): it fires 2 dice at 6 with the PDS before a space battle
    (procedures/space_battle.py ``_pds_pool``; docs/rulings.md 27R-20). PDS-only effects
    (Magen Defense Grid, Graviton Laser System, Maneuvering Jets) name PDS, not it."""

    id = "xxcha_flagship"


class YinIndoctrination(Marker):
    """The Yin Brotherhood: when attacking, before invasion combat it rolls a die; on 5 or
    more the defender loses a ground force and the Yin player gains one (procedures/
    invasion.py; docs/rulings.md 27R-19)."""

    id = "yin_indoctrination"

    #: the die's value
    VALUE = 5


class Fanaticism(Marker):
    """Fanaticism (Yin): the racial ability twice in each ground combat: two dice
    (procedures/invasion.py; docs/rulings.md 27R-19)."""

    id = "fanaticism"


class YinSacrifice(Marker):
    """The Yin Brotherhood: before the second round of a space battle it may discard a
    cruiser or destroyer to inflict a hit on any enemy ship (abilities/yin_sacrifice.py;
    docs/rulings.md 27S-15)."""

    id = "yin_sacrifice"


class NaaluPreCombatRetreat(Marker):
    """The Naalu Collective: when attacked, its fleet may retreat before the space battle
    (abilities/naalu_retreat.py; docs/rulings.md 27S-16)."""

    id = "naalu_pre_combat_retreat"


RACE_HANDLERS: tuple[type[Handler], ...] = (
    HybridCrystalDrives,
    XxchaFlagship,
    YinIndoctrination,
    Fanaticism,
    YinSacrifice,
    LetnevFlagship,
    NaaluPreCombatRetreat,
    LetnevFleetSupply,
    L4Disruptors,
    NoneuclidianShielding,
    MarkIIAdvancedCarriers,
    FloatingFactories,
    SardakkFlagship,
    JolnarFlagship,
    WinnuFlagship,
    MentakFlagship,
    SolFlagship,
    NaaluFlagship,
    YinFlagship,
    NekroFlagship,
    L1z1xFlagship,
    ValkyrieArmor,
    Exotrireme,
    DimensionalSplicers,
    SpecOpsTraining,
)

#: handlers that only refuse the battles where their ability could act (it is not implemented)
REFUSED_WHERE_IT_CAN_ACT: tuple[str, ...] = ()

#: handlers whose docs/effects.md cell says more than "yes" (implemented in part, with what
#: stays refused by name; or solved state by state only in some battles): Van Hauge, whole
#: since 27T-16, its battles with ground forces fighting as fighters solved state by state
PARTLY: dict[str, str] = {
    YinFlagship.id: "yes (ground forces in space and on the planets, with every rule that "
    "reads fighters: 27S-43, 27T-12 to 27T-16)"
}
