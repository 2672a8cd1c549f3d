"""Rules data: unit, technology, faction and law records, validated when loaded.

Rules data lives in TOML files inside each ruleset's ``data/`` folder. This module holds the
schema those files must follow; a file with an unknown key, a missing key or a value of the
wrong kind is refused with the file and the key in the message (``RulesDataError``).

An ability of a unit, faction, technology or law says how it touches combat:

- ``none``: it has no effect on any battle we resolve (movement, production, economy);
- ``stats``: the unit's stat fields already express it (e.g. PDS II range 1, the war sun
  disabling planetary shields, Dreadnought II's immunity to Direct Hit);
- ``rule``: it changes how a battle plays out and needs a handler; ``handler`` names it.
  A ``rule`` ability whose handler the engine does not have makes any battle that would
  use it fail with ``RuleNotImplemented`` naming it, never a silent omission.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spacecombat.core.errors import RulesDataError

CombatRelevance = Literal["none", "stats", "rule"]
Source = Literal["base", "pok", "codex1", "codex2", "codex3", "se", "sot"]
ModelT = TypeVar("ModelT", bound=BaseModel)


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Roll(_Record):
    """A dice ability: ``dice`` dice per unit, each hitting on ``hit`` or more."""

    hit: int = Field(ge=1, le=10)
    dice: int = Field(ge=1)


class CombatRoll(_Record):
    """A combat value. ``dice`` is absent when an ability sets the number of dice (the Winnu
    flagship rolls one die per opposing non-fighter ship); such a unit also has a ``rule``
    ability, so no battle uses it until that ability's handler exists."""

    hit: int = Field(ge=1, le=10)
    dice: int | None = Field(default=None, ge=1)


class SpaceCannon(Roll):
    """SPACE CANNON: a roll with a range (0: own system only; 1: adjacent systems too)."""

    range: int = Field(ge=0, le=1)


class Production(_Record):
    """PRODUCTION: a fixed value, or the planet's resources plus a number."""

    fixed: int | None = None
    planet_resources_plus: int | None = None


class Ability(_Record):
    """One printed ability, in our words, and how it touches combat."""

    name: str | None = None
    text: str
    combat: CombatRelevance
    handler: str | None = None


class UnitDef(_Record):
    """One unit card: a generic unit, its upgrade, a faction unit, a flagship or a mech."""

    id: str
    name: str
    type: str
    level: int | None = None
    source: Source = "base"
    faction: str | None = None
    replaces: str | None = None
    upgrades_to: str | None = None
    upgrade_tech_prereqs: str | None = None
    cost: float | None = None
    units_per_cost: int = 1
    move: int | None = None
    capacity: int | None = None
    combat: CombatRoll | None = None
    sustain_damage: bool = False
    anti_fighter_barrage: Roll | None = None
    bombardment: Roll | None = None
    space_cannon: SpaceCannon | None = None
    planetary_shield: bool = False
    production: Production | None = None
    is_ship: bool = False
    is_ground_force: bool = False
    is_structure: bool = False
    immune_to_direct_hit: bool = False
    disables_enemy_planetary_shield: bool = False
    fighter_capacity_exemption: int = 0
    abilities: tuple[Ability, ...] = ()


class UnitCards:
    """What a player's unit cards say of a unit type (for a class with a ``cards`` mapping)."""

    cards: Mapping[str, UnitDef]

    def card(self, unit: str) -> UnitDef:
        return self.cards[unit]

    def is_ship(self, unit: str) -> bool:
        return self.cards[unit].is_ship

    def is_ground_force(self, unit: str) -> bool:
        """Units that fight on planets (TI4 infantry and mechs; TI3 ground forces, Shock
        Troops and Mechanized Units)."""
        return self.cards[unit].is_ground_force

    def is_structure(self, unit: str) -> bool:
        return self.cards[unit].is_structure


class TechnologyDef(_Record):
    """A technology that is not a unit upgrade (those are unit cards)."""

    id: str
    name: str
    color: Literal["red", "blue", "green", "yellow", "none"]
    source: Source = "base"
    faction: str | None = None
    window: str
    text: str
    combat: CombatRelevance
    handler: str | None = None


class FactionDef(_Record):
    """A faction and those of its faction abilities that touch combat."""

    id: str
    name: str
    source: Source = "base"
    abilities: tuple[Ability, ...] = ()


class LawDef(_Record):
    """An agenda in play as a law. ``elect = "player"``: the law names an elected player, who
    owns its effect; ``elect = "planet"``: it names a planet (a scenario's ``elected`` says
    which)."""

    id: str
    name: str
    source: Source = "base"
    text: str
    combat: CombatRelevance
    handler: str | None = None
    elect: Literal["player", "planet"] | None = None


class CardDef(_Record):
    """A card or leader a player may hold (action card, promissory note, leader, relic) and
    that may act in a battle: playing or using it is a decision of its holder."""

    id: str
    name: str
    kind: Literal["action_card", "promissory_note", "leader", "relic"]
    source: Source = "base"
    #: the faction whose card it is (promissory notes and leaders), if any
    faction: str | None = None
    #: a leader's kind: an agent (exhausted when used), a commander (used again and again) or
    #: a hero (purged when used); given for leaders only
    leader: Literal["agent", "commander", "hero"] | None = None
    #: the timing window it is played in (as in ti4-combat-effects.md)
    window: str
    text: str
    combat: CombatRelevance
    handler: str | None = None
    #: a card a scenario names through another entry: listing it is refused with this message
    #: (Ssruu, who acts as another faction's agent: that agent is listed instead)
    instead: str | None = None
    #: keys of a side (scenario ``SideSpec`` fields) the card reads: a side holding it must give
    #: each, since the engine does not guess them (Reveal Prototype: ``resources``,
    #: ``technology_colours``)
    needs: tuple[str, ...] = ()


class ConditionDef(_Record):
    """A fact an effect reads that the forces do not show (a relic fragment held, the system
    being a home system ...), named by a scenario's ``conditions`` (of a player) or
    ``system.features`` (of the active system)."""

    id: str
    scope: Literal["player", "system"]
    text: str


class CardsFile(_Record):
    card: tuple[CardDef, ...]
    condition: tuple[ConditionDef, ...] = ()


class UnitsFile(_Record):
    unit: tuple[UnitDef, ...]


class TechnologiesFile(_Record):
    technology: tuple[TechnologyDef, ...]


class FactionsFile(_Record):
    faction: tuple[FactionDef, ...]


class LawsFile(_Record):
    law: tuple[LawDef, ...]


def load_toml(package: str, filename: str, model: type[ModelT]) -> ModelT:
    """Read ``filename`` from ``package``'s ``data`` folder and validate it as ``model``."""
    where = f"{package.replace('.', '/')}/data/{filename}"
    try:
        raw = resources.files(package).joinpath("data", filename).read_text(encoding="utf-8")
        parsed = tomllib.loads(raw)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RulesDataError(f"{where}: cannot read: {exc}") from exc
    try:
        return model.model_validate(parsed)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(part) for part in first["loc"])
        raise RulesDataError(f"{where}: {loc}: {first['msg']}") from exc


def check_unique_ids(where: str, ids: Sequence[str]) -> None:
    """Refuse a data file that names the same id twice."""
    seen: set[str] = set()
    for ident in ids:
        if ident in seen:
            raise RulesDataError(f"{where}: id {ident!r} appears twice")
        seen.add(ident)
