"""TI4's rules data, loaded once from the TOML files in ``data/`` and cross-checked."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

from pydantic import BaseModel, ConfigDict, StrictBool

from spacecombat.core.errors import RulesDataError
from spacecombat.core.rulesdata import (
    CardDef,
    CardsFile,
    ConditionDef,
    FactionDef,
    FactionsFile,
    LawDef,
    LawsFile,
    TechnologiesFile,
    TechnologyDef,
    UnitDef,
    UnitsFile,
    check_unique_ids,
    load_toml,
)
from spacecombat.rulesets.options import parse_options
from spacecombat.scenario.schema import SideSpec

PACKAGE = "spacecombat.rulesets.ti4"

#: Unit types a scenario may name (the issue's ids); the data's ``type`` field uses the same.
UNIT_TYPES = (
    "war_sun",
    "dreadnought",
    "cruiser",
    "carrier",
    "destroyer",
    "fighter",
    "infantry",
    "mech",
    "pds",
    "space_dock",
    "flagship",
)


@dataclass(frozen=True)
class Ti4Data:
    """Every TI4 unit card, technology, faction and law we know, by id."""

    units: dict[str, UnitDef]
    technologies: dict[str, TechnologyDef]
    factions: dict[str, FactionDef]
    laws: dict[str, LawDef]
    #: action cards, promissory notes, leaders and relics (data/cards.toml)
    cards: dict[str, CardDef]
    #: facts about a player or the system that effects read (data/cards.toml)
    conditions: dict[str, ConditionDef]

    @cached_property
    def _by_owner(self) -> dict[tuple[str | None, str], list[UnitDef]]:
        """The cards of each (faction, unit type), in data order (faction ``None``: generic).
        Made once: a battle's set-up looks a card up for every unit type of both sides."""
        found: dict[tuple[str | None, str], list[UnitDef]] = {}
        for unit in self.units.values():
            found.setdefault((unit.faction, unit.type), []).append(unit)
        return found

    def generic(self, unit_type: str, level: int) -> UnitDef:
        """The generic card of a type at a level (war sun: level 2 only; mech: no level)."""
        candidates = self._by_owner.get((None, unit_type), [])
        for unit in candidates:
            if unit.level in (level, None):
                return unit
        if unit_type == "war_sun" and candidates:
            return candidates[0]
        raise RulesDataError(f"units.toml: no generic {unit_type} at level {level}")

    def faction_card(self, faction: str, unit_type: str, level: int) -> UnitDef | None:
        """The faction's own card for a unit type at a level, if it has one.

        A faction unit's level is the level of the generic card it ``replaces``; flagships and
        mechs have one card (or a base card whose ``upgrades_to`` names the upgraded one).
        """
        own = self._by_owner.get((faction, unit_type), [])
        if not own:
            return None
        for unit in own:
            if self._level_of(unit) == level:
                return unit
        upgraded = {u.upgrades_to for u in own if u.upgrades_to}
        base = [u for u in own if u.id not in upgraded]
        if level == 2:
            for unit in base:
                if unit.upgrades_to in self.units:
                    return self.units[unit.upgrades_to]
        return base[0] if base else own[0]

    def _level_of(self, unit: UnitDef) -> int | None:
        if unit.level is not None:
            return unit.level
        if unit.replaces is not None and unit.replaces in self.units:
            return self.units[unit.replaces].level
        return None


@cache
def load() -> Ti4Data:
    """Load and cross-check the TI4 data files (cached)."""
    units = load_toml(PACKAGE, "units.toml", UnitsFile).unit
    techs = load_toml(PACKAGE, "technologies.toml", TechnologiesFile).technology
    factions = load_toml(PACKAGE, "factions.toml", FactionsFile).faction
    laws = load_toml(PACKAGE, "laws.toml", LawsFile).law
    held = load_toml(PACKAGE, "cards.toml", CardsFile)
    check_unique_ids("units.toml", [u.id for u in units])
    check_unique_ids("technologies.toml", [t.id for t in techs])
    check_unique_ids("factions.toml", [f.id for f in factions])
    check_unique_ids("laws.toml", [law.id for law in laws])
    check_unique_ids("cards.toml", [c.id for c in held.card])
    check_unique_ids("cards.toml conditions", [c.id for c in held.condition])
    data = Ti4Data(
        units={u.id: u for u in units},
        technologies={t.id: t for t in techs},
        factions={f.id: f for f in factions},
        laws={law.id: law for law in laws},
        cards={c.id: c for c in held.card},
        conditions={c.id: c for c in held.condition},
    )
    _cross_check(data)
    return data


def _cross_check(data: Ti4Data) -> None:
    for unit in data.units.values():
        where = f"units.toml: {unit.id}"
        if unit.type not in UNIT_TYPES:
            raise RulesDataError(f"{where}: type {unit.type!r} is not one of {UNIT_TYPES}")
        for ref in (unit.upgrades_to, unit.replaces):
            if ref is not None and ref not in data.units:
                raise RulesDataError(f"{where}: names unknown unit {ref!r}")
        if unit.faction is not None and unit.faction not in data.factions:
            raise RulesDataError(f"{where}: unknown faction {unit.faction!r}")
        # Hel-Titan (Titans PDS) is both a structure and a ground force; a ship is only a ship.
        if not (unit.is_ship or unit.is_ground_force or unit.is_structure) or (
            unit.is_ship and (unit.is_ground_force or unit.is_structure)
        ):
            raise RulesDataError(f"{where}: must be a ship, or a ground force and/or structure")
        if (
            unit.combat is not None
            and unit.combat.dice is None
            and not any(a.combat == "rule" for a in unit.abilities)
        ):
            raise RulesDataError(f"{where}: combat dice are unset but no ability sets them")
    for tech in data.technologies.values():
        if tech.faction is not None and tech.faction not in data.factions:
            raise RulesDataError(f"technologies.toml: {tech.id}: unknown faction {tech.faction!r}")
    for card in data.cards.values():
        if card.faction is not None and card.faction not in data.factions:
            raise RulesDataError(f"cards.toml: {card.id}: unknown faction {card.faction!r}")
        if (card.combat == "rule") != (card.handler is not None):
            raise RulesDataError(f"cards.toml: {card.id}: a handler goes with combat = 'rule'")
        if (card.kind == "leader") != (card.leader is not None):
            raise RulesDataError(
                f"cards.toml: {card.id}: a leader says which (leader = agent, commander or hero),"
                " and only a leader does"
            )
        for need in card.needs:
            if need not in SideSpec.model_fields:
                raise RulesDataError(f"cards.toml: {card.id}: needs unknown side key {need!r}")


class Ti4Options(BaseModel):
    """The rule options of a TI4 scenario (``options:``), each where a player might want another
    reading of the rules than ours (docs/rulings.md names the ruling of each)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Fighters and ground forces in the space area beyond the capacity of the player's ships
    #: (and space docks) are removed before space cannon offense (LRR 16.3 and its note 1:
    #: capacity must be met before the Space Cannon Offense step; docs/rulings.md R31). Off: the
    #: whole fleet fights, and the excess is removed only after space cannon offense hits the
    #: player, or at the end of combat (ti4-space-combat.md 10.1 and note 1).
    check_capacity_before_battle: StrictBool = True


def options(raw: dict[str, object] | None) -> Ti4Options:
    """The scenario's ``options``, checked strictly (``rulesets/options.py``), with defaults for
    the others."""
    return parse_options(Ti4Options, raw, "ti4")


#: how a unit upgrade gained during a battle is named among the technologies gained
#: (``BattleState.gained``)
UPGRADE = "upgrade:"

#: the unit types a side may name in ``upgrades``
UPGRADABLE = (
    "carrier",
    "cruiser",
    "destroyer",
    "dreadnought",
    "fighter",
    "infantry",
    "pds",
    "space_dock",
)


def upgrade_beyond_upgrades(card: UnitDef) -> bool:
    """Whether ``card`` is a faction's upgraded unit of a type ``upgrades`` cannot name (the
    Nomad's Memoria II, the Muaat's Prototype War Sun II): a side names it in ``cards``."""
    return card.upgrade_tech_prereqs is not None and card.type not in UPGRADABLE


def faction_unit_upgrade(card: UnitDef) -> bool:
    """Whether ``card`` is a faction unit upgrade technology (a faction's upgraded unit with
    technology prerequisites: Exotrireme II, Hybrid Crystal Fighter II, Memoria II): what a
    Valefar Assimilator's token may copy besides faction technologies (docs/rulings.md 27V-7)."""
    return card.faction is not None and card.upgrade_tech_prereqs is not None


def upgraded_card(data: Ti4Data, faction: str | None, unit: str) -> UnitDef | None:
    """The faction's upgraded card of a unit type ``upgrades`` cannot name, if it has one."""
    for card in data.units.values():
        if card.faction == faction and card.type == unit and upgrade_beyond_upgrades(card):
            return card
    return None
