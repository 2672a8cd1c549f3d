"""What the page needs to build a scenario of each ruleset (``GET /api/v1/rulesets``), read
from the rulesets' own loaded data and models, never from a list kept here: unit ids with their
cards, upgrades, technologies, factions, laws, anomalies, rule options and policy fields. The
registry (``spacecombat.rulesets.REGISTRY``) names each ruleset's function here; this module is
imported only when a catalogue is asked for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict
from fractions import Fraction
from typing import Any, get_args

from pydantic import BaseModel

from spacecombat.core.limits import MAX_SEED, MAX_UNITS_PER_SIDE
from spacecombat.core.rulesdata import (
    Ability,
    CardDef,
    FactionDef,
    LawDef,
    TechnologyDef,
    UnitDef,
)
from spacecombat.rulesets.ec4x.options import Ec4xOptions
from spacecombat.rulesets.ec4x.planetary.tables import planetary
from spacecombat.rulesets.ec4x.tables import tables
from spacecombat.rulesets.ec4x.turn.orders import NAMES, SECTIONS
from spacecombat.rulesets.ti3 import rules as ti3_rules
from spacecombat.rulesets.ti3.abilities import HANDLERS as TI3_HANDLERS
from spacecombat.rulesets.ti3.abilities.laws import LAW_HANDLERS
from spacecombat.rulesets.ti3.cards import CARDS as TI3_CARDS
from spacecombat.rulesets.ti3.laws import political_cards
from spacecombat.rulesets.ti4 import rules as ti4_rules
from spacecombat.rulesets.ti4.abilities.base import HANDLERS as TI4_HANDLERS
from spacecombat.rulesets.ti4.rules import Ti4Data
from spacecombat.rulesets.ti4.setup import MOST_OF_A_TYPE, UPGRADABLE, side_cards
from spacecombat.scenario.ec4x import (
    ORDERS_HERE,
    ColonySpec,
    DiplomacySpec,
    FleetSpec,
    HouseSpec,
    SystemSpec,
    missing_requirement,
)
from spacecombat.scenario.schema import Anomaly, PolicySpec, Scenario, SideSpec


def _fields(model: type[BaseModel]) -> dict[str, Any]:
    """A model's fields as JSON Schema (types, allowed values, bounds, defaults)."""
    schema = model.model_json_schema()
    properties: dict[str, Any] = schema.get("properties", {})
    defs = schema.get("$defs")
    return {"fields": properties, "definitions": defs} if defs else {"fields": properties}


def _implemented(combat: str, handler: str | None, handlers: Iterable[str]) -> bool:
    """Whether the engine can play a record: a ``rule`` needs its handler (otherwise a battle
    that uses it is refused with ``RuleNotImplemented``)."""
    return combat != "rule" or handler in set(handlers)


def _abilities(abilities: Iterable[Ability], handlers: Iterable[str]) -> bool:
    return all(_implemented(a.combat, a.handler, handlers) for a in abilities)


def _card(unit: UnitDef, handlers: Iterable[str]) -> dict[str, Any]:
    card = unit.model_dump(mode="json", exclude_none=True)
    card["implemented"] = _abilities(unit.abilities, handlers)
    return card


def _technology(tech: TechnologyDef, handlers: Iterable[str]) -> dict[str, Any]:
    out = tech.model_dump(mode="json", exclude_none=True)
    out["implemented"] = _implemented(tech.combat, tech.handler, handlers)
    return out


def _faction(faction: FactionDef, handlers: Iterable[str]) -> dict[str, Any]:
    out = faction.model_dump(mode="json", exclude_none=True)
    out["implemented"] = _abilities(faction.abilities, handlers)
    return out


def _law(law: LawDef, handlers: Iterable[str]) -> dict[str, Any]:
    out = law.model_dump(mode="json", exclude_none=True)
    out["implemented"] = _implemented(law.combat, law.handler, handlers)
    return out


def _held(card: CardDef, handlers: Iterable[str]) -> dict[str, Any]:
    out = card.model_dump(mode="json", exclude_none=True)
    out["implemented"] = _implemented(card.combat, card.handler, handlers)
    return out


def _side_fields() -> dict[str, Any]:
    return _fields(SideSpec)


def ti4() -> dict[str, Any]:
    """TI4's catalogue."""
    data = ti4_rules.load()
    return _ti(
        data,
        list(TI4_HANDLERS),
        ti4_rules.UNIT_TYPES,
        list(UPGRADABLE),
        ti4_rules.Ti4Options,
        unit_cards=_ti4_unit_cards(data),
        # the ion storm is TI3's special system alone (docs/rulings.md 27I-5)
        anomalies=[a for a in get_args(Anomaly) if a != "ion_storm"],
    )


def _ti4_unit_cards(data: Ti4Data) -> dict[str, dict[str, dict[str, str]]]:
    """The unit card each side plays with, by faction (``""``: none, the generic units) and unit
    type: ``base`` without its unit upgrade, ``upgraded`` with it (the same card for a unit type
    that has no upgrade); read by the set-up's own function (``side_cards``), so the page shows
    the cards a battle uses (docs/rulings.md 25U-1). A type with no card for the side (the
    flagship of no faction) is left out."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    for faction in (None, *data.factions):
        base = side_cards(data, faction, ())
        upgraded = side_cards(data, faction, UPGRADABLE)
        found[faction or ""] = {
            unit: {"base": card.id, "upgraded": upgraded[unit].id} for unit, card in base.items()
        }
    return found


def ti3() -> dict[str, Any]:
    """TI3's catalogue: no unit upgrades (its technologies change the cards), its political
    cards as laws (``_ti3_laws``);
    each race plays the generic cards and its own flagship (``<race>_flagship``, Shards of the
    Throne; docs/rulings.md 27R-1), a side of no race none (``unit_cards``, as TI4's); the
    action cards a side may hold (``held_cards``), those the engine plays implemented."""
    data = ti3_rules.load()
    generic = {
        unit: {"base": unit, "upgraded": unit}
        for unit in ti3_rules.UNIT_TYPES
        if unit != "flagship"
    }
    unit_cards: dict[str, dict[str, dict[str, str]]] = {"": generic}
    for race in data.factions:
        own = ti3_rules.flagship_id(race)
        flagship = {"flagship": {"base": own, "upgraded": own}} if own in data.units else {}
        unit_cards[race] = {**generic, **flagship}
    found = _ti(
        data,
        [*TI3_HANDLERS, *TI3_CARDS],
        ti3_rules.UNIT_TYPES,
        [],
        ti3_rules.Ti3Options,
        laws=False,
        unit_cards=unit_cards,
    )
    found["laws"] = _ti3_laws()
    return found


def _ti3_laws() -> dict[str, Any]:
    """TI3's political cards a scenario may list in ``laws`` (docs/rulings.md 27Z): those
    the engine plays, or that never act, implemented; ``elect`` only where a battle reads the
    elected player (``elected`` is refused for any other law)."""
    found: dict[str, Any] = {}
    for ident, card in political_cards().items():
        out = card.model_dump(mode="json", exclude_none=True)
        if card.combat != "rule":
            out.pop("elect", None)
        out["implemented"] = card.combat == "none" or card.handler in LAW_HANDLERS
        found[ident] = out
    return found


def _ti(
    data: Any,
    handlers: list[str],
    units: Any,
    upgrades: list[str],
    options: type[BaseModel],
    *,
    laws: bool = True,
    unit_cards: dict[str, dict[str, dict[str, str]]],
    anomalies: list[str] | None = None,
) -> dict[str, Any]:
    """A TI ruleset's catalogue, from its loaded data (``rules.load()``), its handlers' ids
    (what is implemented) and its scenario models; ``anomalies``: those its scenarios may name
    (default: every one the scenario schema has)."""
    return {
        "battles": list(get_args(Scenario.model_fields["battle"].annotation)),
        "units": list(units),
        "cards": {i: _card(u, handlers) for i, u in data.units.items()},
        # the card of each unit type a side plays with, by faction ("": none) and upgrade
        "unit_cards": unit_cards,
        # the most units of a side (``per_side``) and of one type (``per_type``: the flagship)
        "most": {"per_side": MAX_UNITS_PER_SIDE, "per_type": dict(MOST_OF_A_TYPE)},
        "upgrades": upgrades,
        "technologies": {i: _technology(t, handlers) for i, t in data.technologies.items()},
        "factions": {i: _faction(f, handlers) for i, f in data.factions.items()},
        "laws": {i: _law(law, handlers) for i, law in data.laws.items()} if laws else {},
        "anomalies": list(get_args(Anomaly)) if anomalies is None else anomalies,
        "options": _fields(options),
        "policy": _fields(PolicySpec),
        "side": _side_fields(),
        # TI4: action cards, promissory notes, leaders and relics a side may hold, and the
        # conditions (of a player or of the system) that effects read; TI3: its action cards
        "held_cards": {i: _held(c, handlers) for i, c in getattr(data, "cards", {}).items()},
        "conditions": {
            i: c.model_dump(mode="json") for i, c in getattr(data, "conditions", {}).items()
        },
    }


def _plain(value: object) -> object:
    """A table value as JSON: fractions as text (``"1/2"``), mappings and tuples as such."""
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def ec4x() -> dict[str, Any]:
    """EC4X's catalogue: its ship classes and tables, no factions, laws or anomalies."""
    data = tables()
    ground = planetary()
    return {
        "battles": ["space"],
        "units": list(data.classes),
        "cards": {code: _plain(asdict(c)) for code, c in data.classes.items()},
        "ground_units": {code: _plain(asdict(u)) for code, u in ground.units.items()},
        "upgrades": [],
        "technologies": {},
        "factions": {},
        "laws": {},
        "anomalies": [],
        "buckets": _plain(dict(data.bucket_name)),
        "carrier_capacity": _plain(dict(data.carrier_capacity)),
        "roe": {str(level): _plain(asdict(rule)) for level, rule in data.roe.items()},
        "options": _fields(Ec4xOptions),
        "policy": _fields(HouseSpec),
        "fleet": _fields(FleetSpec),
        # what the page's EC4X form offers beside the houses and fleets: the system, the
        # statuses of diplomacy (8.1), the colony's defences (2.4.1, 7.4-7.6) and the orders
        "system": _fields(SystemSpec),
        "diplomacy": _fields(DiplomacySpec),
        "colony": _fields(ColonySpec),
        "orders": _orders(),
        # the largest seed (7.3.2.5), as text: 64 bits do not fit in a JavaScript number
        "max_seed": str(MAX_SEED),
    }


def _orders() -> list[dict[str, Any]]:
    """6.2's orders: code, name, section, whether the order is carried out in the battle's
    system (its target, if given, is ``system.name``: ruling E59) and what it asks of the fleet
    (6.2's requirements table, ``missing_requirement`` of a fleet with nothing; orders 07 and 08
    also need a colony to land on, E62, and 15 a friendly colony system)."""
    nothing = FleetSpec(id="-", owner="-")
    where = {7: "a colony to land on", 8: "a colony to land on", 15: "a friendly colony system"}
    out = []
    for code, name in NAMES.items():
        needs = [n for n in (missing_requirement(code, nothing), where.get(code)) if n]
        out.append(
            {
                "code": code,
                "name": name,
                "section": SECTIONS[code],
                "here": code in ORDERS_HERE,
                "needs": "; ".join(needs) or None,
            }
        )
    return out
