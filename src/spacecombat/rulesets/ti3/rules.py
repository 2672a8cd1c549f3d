"""TI3's rules data: unit cards overlaid on TI4's, technologies and races, loaded once and
checked; and the named rule options where the TI3 sources leave a choice open."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from spacecombat.core.errors import RulesDataError
from spacecombat.core.limits import MAX_UNITS_PER_SIDE
from spacecombat.core.rulesdata import (
    CardDef,
    CardsFile,
    FactionDef,
    FactionsFile,
    TechnologiesFile,
    TechnologyDef,
    UnitDef,
    check_unique_ids,
    load_toml,
)
from spacecombat.rulesets.options import parse_options
from spacecombat.rulesets.ti4 import rules as ti4_rules

PACKAGE = "spacecombat.rulesets.ti3"

#: Unit ids a TI3 scenario may name (issue 4); each is also the unit's type.
UNIT_TYPES = (
    "war_sun",
    "dreadnought",
    "cruiser",
    "carrier",
    "destroyer",
    "fighter",
    "ground_force",
    "shock_troop",
    "mechanized_unit",
    "pds",
    "space_dock",
    "flagship",
)

#: TI4 card fields a TI3 overlay never inherits: TI3 has no unit upgrades, and a TI3 unit
#: lists its own abilities.
_NOT_INHERITED = {
    "id",
    "name",
    "level",
    "upgrades_to",
    "upgrade_tech_prereqs",
    "replaces",
    "faction",
    "source",
    "abilities",
}


@dataclass(frozen=True)
class Ti3Data:
    """Every TI3 unit, technology, race and action card we know, by id."""

    units: dict[str, UnitDef]
    technologies: dict[str, TechnologyDef]
    factions: dict[str, FactionDef]
    #: action cards a player may hold (data/action_cards.toml; issue 27)
    cards: dict[str, CardDef]


def _overlay(raw: dict[str, Any], where: str) -> UnitDef:
    """A TI3 unit: the TI4 card named by ``base`` with the TI3 fields laid over it."""
    fields = dict(raw)
    base = fields.pop("base", None)
    merged: dict[str, Any] = {}
    if base is not None:
        ti4_units = ti4_rules.load().units
        if base not in ti4_units:
            raise RulesDataError(f"{where}: base {base!r} is not a TI4 unit card")
        card = ti4_units[base].model_dump(exclude_defaults=True)
        merged = {k: v for k, v in card.items() if k not in _NOT_INHERITED}
    merged.update(fields)
    try:
        return UnitDef.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(part) for part in first["loc"])
        raise RulesDataError(f"{where}: {loc}: {first['msg']}") from exc


def _race_flagship(unit: UnitDef) -> bool:
    """A race's own flagship card (Shards of the Throne): ``<race>_flagship`` of type
    ``flagship``, which a scenario names ``flagship`` for a side of that race."""
    return (
        unit.type == "flagship"
        and unit.faction is not None
        and unit.id == flagship_id(unit.faction)
    )


def flagship_id(race: str) -> str:
    """The id of ``race``'s flagship card."""
    return f"{race}_flagship"


@cache
def load() -> Ti3Data:
    """Load and check the TI3 data files (cached)."""
    path = f"{PACKAGE.replace('.', '/')}/data/units.toml"
    try:
        text = resources.files(PACKAGE).joinpath("data", "units.toml").read_text("utf-8")
        raw_units = tomllib.loads(text).get("unit", [])
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RulesDataError(f"{path}: cannot read: {exc}") from exc
    units = [_overlay(raw, f"{path}: unit {raw.get('id', i)!r}") for i, raw in enumerate(raw_units)]
    techs = load_toml(PACKAGE, "technologies.toml", TechnologiesFile).technology
    factions = load_toml(PACKAGE, "factions.toml", FactionsFile).faction
    cards = load_toml(PACKAGE, "action_cards.toml", CardsFile).card
    check_unique_ids("ti3 units.toml", [u.id for u in units])
    check_unique_ids("ti3 technologies.toml", [t.id for t in techs])
    check_unique_ids("ti3 factions.toml", [f.id for f in factions])
    check_unique_ids("ti3 action_cards.toml", [c.id for c in cards])
    for card in cards:
        if card.kind != "action_card" or card.source not in ("base", "se", "sot"):
            raise RulesDataError(
                f"ti3 action_cards.toml: {card.id}: a TI3 action card (kind action_card, "
                "source base, se or sot)"
            )
    for unit in units:
        if _race_flagship(unit):
            continue
        if unit.type not in UNIT_TYPES or unit.id != unit.type:
            raise RulesDataError(f"{path}: {unit.id}: id and type must be one of {UNIT_TYPES}")
    return Ti3Data(
        units={u.id: u for u in units},
        technologies={t.id: t for t in techs},
        factions={f.id: f for f in factions},
        cards={c.id: c for c in cards},
    )


class Ti3Options(BaseModel):
    """The rule options of a TI3 scenario (``options:``), each where the TI3 sources leave a
    choice open (../shared/reference/ti3-facts.md, [L] facts; docs/rulings.md T-rulings)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Shattered Empire optional rule: a ground force rolling a natural 10 in invasion combat
    #: may be promoted to a Shock Troop (ti3-facts.md section 8). Off: the SE option is opt-in.
    shock_troops: StrictBool = False
    #: Shock Troop tokens each player has (ti3-facts.md section 8: 12 tokens).
    shock_troop_tokens: StrictInt = Field(default=12, ge=0, le=MAX_UNITS_PER_SIDE)
    #: Both players' Assault Cannons fire at once (a forum ruling, [L]); off: the attacker's
    #: shots land first, then the defender's survivors fire.
    simultaneous_assault_cannon: StrictBool = True
    #: Both players' PDS fire before a space battle at once ([L]); off: attacker's first.
    simultaneous_pds_fire: StrictBool = True
    #: Dreadnoughts may bombard a planet where no invasion follows (ti3-facts.md section 13.3;
    #: the spec says so only of war suns).
    dreadnought_bombard_without_invasion: StrictBool = False
    #: Duranium Armor may repair only a unit not damaged this round (the TI4 wording; no TI3
    #: source has it, ti3-facts.md section 9 [M]).
    duranium_not_damaged_this_round: StrictBool = False
    #: A natural 10 hits whatever the modifiers (no TI3 source has this rule).
    natural_ten_always_hits: StrictBool = False
    #: Dice a Mechanized Unit rolls in invasion combat (Shards of the Throne): 2, as PC_Twi and a
    #: second TI3 program give it (docs/rulings.md 27S-12); 1 as an option.
    mechanized_unit_dice: StrictInt = Field(default=2, ge=1, le=2)
    #: Fleets are checked (capacity, fleet supply) before the space battle as well as after it
    #: (ti3-facts.md section 4.3, [M]); off: only after, so a fleet over capacity fights whole.
    check_fleets_before_battle: StrictBool = True
    #: Shattered Empire optional rule Sabotage Runs: after anti-fighter barrage, fighters may
    #: make a run against an enemy War Sun (procedures/sabotage_run.py; docs/rulings.md 27A-1).
    #: Off: the SE option is opt-in.
    sabotage_runs: StrictBool = False
    #: The War Sun first fires one die at each fighter of the run, at its combat value, each
    #: hit destroying a fighter (docs/rulings.md 27A-2); off: the fighters roll unopposed.
    sabotage_run_war_sun_fire: StrictBool = True
    #: Fighters of the run that do not roll a 10 are destroyed (docs/rulings.md 27A-3); off:
    #: they return to the battle.
    sabotage_run_fighters_lost: StrictBool = True
    #: Whose die Recheck re-rolls (docs/rulings.md 27S-38): ``any`` (a die of either player's
    #: roll: the earlier source of 27S-11, "make a player reroll any one combat die", and the
    #: Clojure deck of 27S-34, "Force reroll of any 1 combat die (your or opponents)") or
    #: ``own`` (PC_Twi, "reroll 1 your dice").
    recheck_die: Literal["any", "own"] = "any"
    #: Minister of War's elected player has a command counter in its strategy allocation to
    #: spend before the space battle (scenarios do not model command counters; docs/rulings.md
    #: 27M-2); off: it has none, and the law's hit is never offered.
    minister_of_war_has_counter: StrictBool = True
    #: A ship leaving a gravity rift (a withdrawal or retreat) rolls a die and is lost on this
    #: face or lower: 5, as PC_Twi, the only TI3 source (``e_GravityRift``, ``SAVE_ROLL = 5``);
    #: 3 is TI4's rule (docs/rulings.md 27M-3).
    gravity_rift_destroyed_at_most: StrictInt = Field(default=5, ge=1, le=10)
    #: What happens to the fighters and ground forces a fleet carries out of a gravity rift
    #: (docs/rulings.md 27Q-3): ``aboard``, each is carried by one ship its owner names before
    #: the dice and is lost with it (TI4's LRR 41, PC_Twi's ground forces); ``capacity``, the
    #: ships roll alone and what the ships that got away cannot carry is lost (PC_Twi's
    #: fighters: the capacity check after the move).
    gravity_rift_cargo: Literal["aboard", "capacity"] = "aboard"
    #: Fighters in a space battle in an ion storm (Shattered Empire; docs/rulings.md 27I-2):
    #: ``no_dice``, they roll no combat dice but stay in the battle as units (casualties,
    #: anti-fighter barrage), as PC_Twi's ``e_IonStormFighters`` and the SA rulebook read it;
    #: ``absent`` (fighters take no part at all) is refused, no source reading it so.
    ion_storm_fighters: Literal["no_dice", "absent"] = "no_dice"
    #: A Sabotage Run in an ion storm (docs/rulings.md 27J-2): ``not_made`` (the step is not
    #: offered: the run is nothing but the fighters' dice, and "fighters cannot roll there",
    #: ti3-facts.md 4.4, read so by the Shattered Ascension calculator in every step of the
    #: battle); ``made`` (the run's die is not a combat-round die, PC_Twi's reading of the
    #: storm, which skips only the fighters' space-battle dice).
    ion_storm_sabotage_run: Literal["not_made", "made"] = "not_made"
    #: Van Hauge's ground forces fighting as fighters in an ion storm (docs/rulings.md 27J-3):
    #: ``no_dice`` (PC_Twi gives them the fighter ability, ``uaFighter``, which
    #: ``e_IonStormFighters`` reads: they roll no dice but may still be taken as casualties);
    #: ``roll`` (they are ground forces, which the storm does not name: one die at 9 each).
    ion_storm_van_hauge: Literal["no_dice", "roll"] = "no_dice"
    #: The Loncara Ssodu's (Xxcha flagship) PDS dice in an ion storm (docs/rulings.md 27J-4):
    #: ``fires`` ("PDS cannot fire into" the storm names PDS, which do not reach the flagship's
    #: dice, 27R-20, 27Y-11, and it fires from inside the system; PC_Twi's PDS fire checks no
    #: special system); ``none`` (the Shattered Ascension calculator: "Space Cannon may not
    #: fire", any unit's).
    ion_storm_flagship_pds: Literal["fires", "none"] = "fires"
    #: Courageous to the End for a fighter (or a unit fighting as one) destroyed in an ion storm
    #: (docs/rulings.md 27J-5): ``rolls`` (the card's 2 dice are the holder's, not a combat roll
    #: of the fighter, 27S-31: the storm stops the fighters' own dice only); ``not_offered``
    #: (the dice are the fighter's: the card is kept for another ship).
    ion_storm_courageous: Literal["rolls", "not_offered"] = "rolls"


def options(raw: dict[str, object]) -> Ti3Options:
    """The scenario's ``options``, checked strictly (``rulesets/options.py``), with defaults for
    the others."""
    return parse_options(Ti3Options, raw, "ti3")
