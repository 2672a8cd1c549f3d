"""A TI4 battle's fixed facts, built from a scenario: each side's unit cards, abilities,
policy, the system and its neighbours, the planets. Bad input is refused here with
``ScenarioError`` naming the field and what is allowed; a rule we do not implement is refused
with ``RuleNotImplemented`` naming it."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TypeVar, cast

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.forces import Forces, Status
from spacecombat.core.limits import shown
from spacecombat.core.policies import PolicyConfig
from spacecombat.core.rulesdata import Ability, UnitDef
from spacecombat.core.sides import SideState
from spacecombat.core.state import CountedCards
from spacecombat.rulesets.setup import (
    check_invasion_places,
    check_policy_names,
    field_key,
    merged_policy,
    policy_config,
    side_spec,
)
from spacecombat.rulesets.ti4 import abilities as _abilities  # noqa: F401  (registers handlers)
from spacecombat.rulesets.ti4.abilities import (
    articles_of_war,
    demilitarized_zone,
    greyfire_mutagen,
    naalu_flagship_fighters_invade,
    naazrokha_mech_flip,
    nekro_flagship_ground_forces_fight,
    the_cavalry,
)
from spacecombat.rulesets.ti4.abilities import empyrean_mech_cancel_action_card as watcher
from spacecombat.rulesets.ti4.abilities.base import (
    HANDLERS,
    Handler,
    Roll,
    acts_in_windows,
    changes_combat_rolls,
)
from spacecombat.rulesets.ti4.rules import UNIT_TYPES, Ti4Data, Ti4Options, load, options
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase
from spacecombat.scenario.checks import forces as forces_of
from spacecombat.scenario.checks import planet_names, space_battle_units
from spacecombat.scenario.schema import PolicySpec, Scenario, SideSpec

T = TypeVar("T")
#: technologies gained during a battle, each player's (``BattleState.gained``)
Gained = tuple[frozenset[str], frozenset[str]]
NOTHING_GAINED: Gained = (frozenset(), frozenset())
#: how a unit upgrade gained during a battle is named among the technologies gained
UPGRADE = "upgrade:"
_MISSING = object()

#: the name of the unit ability that puts a unit from reinforcements into the battle
DEPLOY = "DEPLOY"

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


@dataclass(frozen=True)
class AdjacentSystem:
    """A system a retreat might go to."""

    name: str
    anomaly: str
    units: frozenset[str]
    ships: frozenset[str]
    planets: frozenset[str]
    command_tokens: frozenset[str]


@dataclass(frozen=True)
class StarSystem:
    """The active system."""

    name: str
    anomaly: str
    adjacent: tuple[AdjacentSystem, ...]
    wormholes: tuple[str, ...] = ()
    features: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SideSetup(CountedCards):
    """What one player brings that does not change during the battle."""

    side: Side
    faction: str | None
    cards: Mapping[str, UnitDef]
    technologies: tuple[str, ...]
    policy: PolicyConfig
    reinforcement_tokens: int | None
    #: action cards, promissory notes, leaders and relics held (data/cards.toml ids)
    held: tuple[str, ...] = ()
    #: facts about this player that effects read (data/cards.toml conditions)
    conditions: frozenset[str] = frozenset()

    # Which unit types are what, from the cards once (procedures ask at every step).

    @cached_property
    def ship_types(self) -> frozenset[str]:
        return frozenset(u for u, card in self.cards.items() if card.is_ship)

    @cached_property
    def fighter_types(self) -> frozenset[str]:
        return frozenset(u for u, card in self.cards.items() if card.type == "fighter")

    @cached_property
    def ground_force_types(self) -> frozenset[str]:
        return frozenset(u for u, card in self.cards.items() if card.is_ground_force)

    @cached_property
    def sustainers(self) -> frozenset[str]:
        """The unit types with SUSTAIN DAMAGE."""
        return frozenset(u for u, card in self.cards.items() if card.sustain_damage)

    def is_fighter(self, unit: str) -> bool:
        return self.cards[unit].type == "fighter"

    def needs_transport(self, unit: str) -> bool:
        """Ground forces, and ships with no move value (Fighter I), must be carried."""
        card = self.cards[unit]
        return card.is_ground_force or (card.is_ship and card.move is None)

    def can_move(self, unit: str) -> bool:
        """Ships with a move value leave on their own in a retreat (step 5.2)."""
        card = self.cards[unit]
        return card.is_ship and card.move is not None

    # Effects that name a unit type ("cruiser", "flagship") name every unit of it, also one
    # that became a unit type of its own for the combat: The Cavalry's ship (``cavalry_cruiser``
    # is still a cruiser, docs/rulings.md 14CV-1) or a Z-Grav Eidolon (still a mech). Its card
    # keeps the type it was.

    @cached_property
    def _of_type(self) -> dict[str, frozenset[str]]:
        grouped: dict[str, set[str]] = {}
        for unit, card in self.cards.items():
            grouped.setdefault(card.type, set()).add(unit)
        return {kind: frozenset(units) for kind, units in grouped.items()}

    def of_type(self, unit_type: str) -> frozenset[str]:
        """The unit types that are ``unit_type`` for the effects naming it (itself among them)."""
        return self._of_type.get(unit_type, frozenset())

    def is_a(self, unit: str, unit_type: str) -> bool:
        """Whether ``unit`` is a ``unit_type`` for the effects naming that type."""
        return self.cards[unit].type == unit_type

    def count_of(self, forces: Forces, unit_type: str, status: Status | None = None) -> int:
        """How many of ``forces`` are ``unit_type`` units (of ``status``, if given)."""
        return sum(forces.count(unit, status) for unit in self.of_type(unit_type))


@dataclass(frozen=True, eq=False)
class BattleSetup:
    """Everything fixed about one battle (compared and hashed by identity)."""

    kind: str
    sides: Mapping[Side, SideSetup]
    system: StarSystem
    planets: tuple[str, ...]
    laws: tuple[str, ...]
    options: Ti4Options
    handlers: tuple[Handler, ...]
    bombarded_by: tuple[Mapping[str, int], ...]
    commits: tuple[Mapping[str, int], ...]
    initial: BattleState
    scenario: Scenario = field(compare=False)
    #: values computed from the setup alone, remembered (e.g. dice pools by units)
    memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    def side(self, side: Side) -> SideSetup:
        return self.sides[side]

    def modifier(self, roller: Side, roll: Roll, unit: str) -> int:
        """The sum of every handler's modifier to one die of this roll (handlers are pure, so
        it is computed once)."""
        key = (roller, roll, unit)
        known = self._modifiers.get(key)
        if known is None:
            known = sum(h.roll_modifier(self, roller, roll, unit) for h in self.handlers)
            self._modifiers[key] = known
        return known

    def sustain_cancels(self, side: Side) -> int:
        """Hits one SUSTAIN DAMAGE cancels: 1 (sustain damage rule), or what a handler says."""
        return self._sustain_cancels[side]

    @cached_property
    def roll_changers(self) -> tuple[Handler, ...]:
        """The handlers in play that change combat rolls from the state (``combat_roll``)."""
        return tuple(h for h in self.handlers if changes_combat_rolls(h))

    @cached_property
    def acts_in_windows(self) -> bool:
        """Whether some handler in play acts in the timing windows of a combat."""
        return any(acts_in_windows(h) for h in self.handlers)

    @cached_property
    def _modifiers(self) -> dict[tuple[Side, Roll, str], int]:
        return {}

    @cached_property
    def _sustain_cancels(self) -> dict[Side, int]:
        cancels = {}
        for side in SIDES:
            said = [n for h in self.handlers if (n := h.sustain_cancels(side)) is not None]
            cancels[side] = max(said, default=1)
        return cancels

    def having(self, gained: Gained) -> BattleSetup:
        """This battle as it stands once each player (attacker, defender) has gained some
        technologies during it (``BattleState.gained``: technology ids, and ``upgrade:UNIT`` for
        a unit upgrade): the same scenario with those added to the players' ``technologies``
        and ``upgrades``, built and checked as any other. Gaining one is permanent, so a gained
        technology's handler and unit card act from then on in every procedure; built once for
        each set of gains. The handlers in play before keep their order (a timing window's
        position counts in it), the gained ones come after them."""
        if gained == NOTHING_GAINED:
            return self
        return self.remembered(("having", gained), lambda: _having(self, gained))

    def remembered(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, computed once for ``key`` (a value of the setup and ``key`` alone)."""
        known = self.memo.get(key, _MISSING)
        if known is _MISSING:
            known = self.memo[key] = make()
        return cast("T", known)


def _check_ti3_only_keys(scenario: Scenario) -> None:
    """Keys of the scenario format that TI4 has no use for are refused, not ignored."""
    for side in SIDES:
        if side_spec(scenario, side).fleet_supply:
            raise RuleNotImplemented(
                "the fleet pool (TI4 fleet supply is not modelled)", f"{side.value}.fleet_supply"
            )


def build(scenario: Scenario) -> BattleSetup:
    """Check a scenario against the TI4 rules data and build its setup."""
    data = load()
    rule_options = options(scenario.options)
    _check_ti3_only_keys(scenario)
    laws = tuple(_check_known(f"laws[{i}]", law, data.laws) for i, law in enumerate(scenario.laws))
    _check_elected(data, scenario, laws, scenario.elected or {})
    _check_laws_implemented(data, laws)
    system = _system(scenario)
    planets = planet_names(scenario)
    sides = {
        side: _side(
            data,
            scenario,
            side,
            side_spec(scenario, side),
            system,
            planets,
        )
        for side in SIDES
    }
    handlers = _handlers(data, scenario, sides, laws, system)
    watcher.watch(sides, handlers)  # action cards the Empyrean mech may cancel
    _check_active_system(system, sides, handlers)
    attacker_state, defender_state, commits, bombard = _initial_forces(
        scenario, sides, planets, handlers
    )
    first = Phase.BOMBARDMENT
    if scenario.battle == "space":
        first = Phase.SPACE_CANNON_OFFENSE
        if rule_options.check_capacity_before_battle:
            first = Phase.CAPACITY_BEFORE_BATTLE  # procedures/capacity.py
    initial = BattleState(
        first,
        attacker_state,
        defender_state,
        purse=(
            (scenario.attacker.trade_goods or 0, scenario.attacker.influence or 0),
            (scenario.defender.trade_goods or 0, scenario.defender.influence or 0),
        ),
    )
    setup = BattleSetup(
        kind=scenario.battle,
        sides=sides,
        system=system,
        planets=planets,
        laws=laws,
        options=rule_options,
        handlers=handlers,
        bombarded_by=bombard,
        commits=commits,
        initial=initial,
        scenario=scenario,
    )
    for handler in handlers:  # a handler that would need a rule not implemented in this battle
        refused = handler.refusal(setup)
        if refused is not None:
            raise refused
    return setup


def _having(setup: BattleSetup, gained: Gained) -> BattleSetup:
    """``setup.having(gained)``, built (docs/architecture.md, technologies gained in a battle)."""
    scenario = setup.scenario
    specs: dict[str, SideSpec] = {}
    for side, got in zip(SIDES, gained, strict=True):
        spec = side_spec(scenario, side)
        upgrades = sorted(t.removeprefix(UPGRADE) for t in got if t.startswith(UPGRADE))
        technologies = sorted(t for t in got if not t.startswith(UPGRADE))
        # a war sun or flagship upgrade is a card the side names (``cards``: Memoria II)
        printed = [
            card.id
            for unit in upgrades
            if unit not in UPGRADABLE
            and (card := upgraded_card(load(), spec.faction, unit)) is not None
        ]
        update: dict[str, object] = {
            "technologies": tuple(dict.fromkeys((*spec.technologies, *technologies))),
            "upgrades": tuple(
                dict.fromkeys((*spec.upgrades, *(u for u in upgrades if u in UPGRADABLE)))
            ),
            "cards": tuple(dict.fromkeys((*(spec.cards or ()), *printed))),
        }
        colours = spec.technology_colours
        if colours is not None:
            # a technology gained is owned like the others: its colour counts one more
            counts = colours.model_dump()
            for tech in technologies:
                if tech not in spec.technologies:
                    colour = load().technologies[tech].color
                    if colour in counts:
                        counts[colour] += 1
            update["technology_colours"] = colours.model_copy(update=counts)
        specs[side.value] = spec.model_copy(update=update)
    variant = build(scenario.model_copy(update=specs))
    kept = {(type(h), h.owner): i for i, h in enumerate(setup.handlers)}
    handlers = sorted(variant.handlers, key=lambda h: kept.get((type(h), h.owner), len(kept)))
    return replace(variant, handlers=tuple(handlers), memo={})


def _check_known(field_name: str, ident: str, known: Mapping[str, object]) -> str:
    if ident not in known:
        raise ScenarioError(
            field_name, f"unknown {shown(ident)}; allowed: {', '.join(sorted(known))}"
        )
    return ident


def _check_laws_implemented(data: Ti4Data, laws: tuple[str, ...]) -> None:
    for i, law in enumerate(laws):
        record = data.laws[law]
        if record.combat == "rule" and record.handler not in HANDLERS:
            raise RuleNotImplemented(f"the law {record.name}", f"laws[{i}]")


def _check_elected(
    data: Ti4Data, scenario: Scenario, laws: tuple[str, ...], elected: Mapping[str, str]
) -> None:
    """A law that elects something names it in ``elected`` (a player: attacker or defender; a
    planet: its name); ``elected`` names only such laws in play. No invasion can be fought over
    a planet Demilitarized Zone elected (no unit may be committed to it)."""
    for law in elected:
        field = f"elected.{field_key(law)}"
        if law not in laws:
            raise ScenarioError(field, f"{shown(law)} is not among the scenario's laws")
        kind = data.laws[law].elect
        if kind is None:
            raise ScenarioError(field, f"{data.laws[law].name} elects nothing")
        if kind == "player" and elected[law] not in ("attacker", "defender"):
            raise ScenarioError(
                field, f"{data.laws[law].name} elects a player: attacker or defender"
            )
    for i, law in enumerate(laws):
        kind = data.laws[law].elect
        if kind is not None and law not in elected:
            example = "attacker" if kind == "player" else "PLANET"
            raise ScenarioError(
                f"laws[{i}]",
                f"{data.laws[law].name} elects a {kind}: say which with "
                f"elected: {{{law}: {example}}}",
            )
    zone = elected.get(demilitarized_zone.LAW) if demilitarized_zone.LAW in laws else None
    if zone is not None and scenario.battle == "invasion":
        for i, planet in enumerate(scenario.planets or ()):
            if planet.name == zone:
                raise ScenarioError(f"planets[{i}]", demilitarized_zone.refusal(zone))


#: anomalies no ship may move into (LRR 11.1 asteroid field, 86.1 supernova), each with the
#: technology that lets its owner's ships in (cards Antimass Deflectors, Magmus Reactor)
_CLOSED_ANOMALIES = {
    "asteroid_field": ("an asteroid field", "LRR 11.1", "antimass_deflectors"),
    "supernova": ("a supernova", "LRR 86.1", "magmus_reactor"),
}


def _check_active_system(
    system: StarSystem, sides: Mapping[Side, SideSetup], handlers: tuple[Handler, ...]
) -> None:
    """No battle can happen in an anomaly the active player's ships cannot move into: a ship
    cannot move into an asteroid field (LRR 11.1) or a supernova (LRR 86.1), unless its owner
    has Antimass Deflectors or Magmus Reactor ("your ships can move into ...";
    docs/rulings.md R32). The same permission opens it to a retreat (notes 2 and 3)."""
    closed = _CLOSED_ANOMALIES.get(system.anomaly)
    if closed is None:
        return
    name, rule, key = closed
    attacker = Side.ATTACKER
    if any(h.permits_anomaly(attacker, system.anomaly) for h in handlers):
        return
    tech = load().technologies[key].name
    raise ScenarioError(
        "system.anomaly",
        f"no battle can happen in {name}: ships cannot move into one ({rule}) unless their "
        f"owner has {tech}; add {key} to attacker.technologies to fight there",
    )


def _system(scenario: Scenario) -> StarSystem:
    names: set[str] = set()
    adjacent = []
    for i, spec in enumerate(scenario.system.adjacent):
        if spec.name in names or spec.name == scenario.system.name:
            raise ScenarioError(f"system.adjacent[{i}].name", f"{shown(spec.name)} is named twice")
        names.add(spec.name)
        adjacent.append(
            AdjacentSystem(
                spec.name,
                spec.anomaly,
                frozenset(spec.units) | frozenset(spec.ships),
                frozenset(spec.ships),
                frozenset(spec.planets),
                frozenset(spec.command_tokens),
            )
        )
    return StarSystem(
        scenario.system.name,
        scenario.system.anomaly,
        tuple(adjacent),
        wormholes=tuple(scenario.system.wormholes or ()),
        features=_conditions(load(), scenario.system.features or (), "system.features", "system"),
    )


def _policy(
    scenario: Scenario, spec: SideSpec, where: str, system: StarSystem, planets: tuple[str, ...]
) -> PolicyConfig:
    # Each layer is checked under its own name: the shared `policy`, then the side's.
    config = merged_policy(
        scenario,
        spec,
        where,
        lambda layer, name: _check_policy(scenario, layer, name, system, planets),
    )
    return policy_config(
        config,
        retreat_takes_planet_ground_forces=bool(config.retreat_takes_planet_ground_forces),
        planet_order=tuple(config.planet_order or ()),
    )


def _check_policy(
    scenario: Scenario, layer: PolicySpec, where: str, system: StarSystem, planets: tuple[str, ...]
) -> None:
    check_policy_names(layer, where, UNIT_TYPES, [s.name for s in system.adjacent])
    if layer.pre_combat_order:
        raise ScenarioError(f"{where}.pre_combat_order", "a TI3 key; TI4 has no pre-combat order")
    if layer.planet_order and scenario.battle != "invasion":
        raise ScenarioError(f"{where}.planet_order", "only an invasion has planets to order")
    for i, name in enumerate(layer.planet_order or ()):
        if name not in planets:
            raise ScenarioError(
                f"{where}.planet_order[{i}]",
                f"{shown(name)} is not a planet of the battle; allowed: {', '.join(planets)}",
            )
    data = load()
    for ident in layer.play or {}:
        # a card held, or a technology or ability its holder decides to use (Supercharge,
        # Impulse Core, Devotion ...: they ask through the same play_card decision)
        if ident not in data.cards and ident not in data.technologies and ident not in HANDLERS:
            raise ScenarioError(
                f"{where}.play.{field_key(ident)}",
                f"unknown card or ability {shown(ident)}; allowed: the ids of data/cards.toml "
                f"(e.g. {', '.join(sorted(data.cards)[:6])} ...), of technologies, or an "
                "ability's handler id (docs/effects.md)",
            )
        alastor = nekro_flagship_ground_forces_fight
        when = (layer.play or {})[ident]
        if when == alastor.WITH_PLANETS and ident != alastor.ID:
            raise ScenarioError(
                f"{where}.play.{field_key(ident)}",
                f"{shown(when)} is only for {alastor.ID} (its ground forces on planets "
                "participate too); allowed here: 'never' or {round: N}",
            )


#: the cards of a faction with some upgrades, by (faction, upgrades), with the data they were
#: read from: finding a card searches all of the data's cards, and battles repeat the question
_CARDS: dict[tuple[str | None, frozenset[str]], tuple[Ti4Data, dict[str, UnitDef]]] = {}
_CARDS_KEPT = 1024


def _cards(data: Ti4Data, faction: str | None, upgrades: Iterable[str]) -> dict[str, UnitDef]:
    key = (faction, frozenset(upgrades))
    known = _CARDS.get(key)
    if known is None or known[0] is not data:
        if len(_CARDS) >= _CARDS_KEPT:
            _CARDS.clear()
        known = _CARDS[key] = (data, _read_cards(data, faction, key[1]))
    return dict(known[1])


def _read_cards(data: Ti4Data, faction: str | None, upgraded: frozenset[str]) -> dict[str, UnitDef]:
    cards: dict[str, UnitDef] = {}
    for unit_type in UNIT_TYPES:
        level = 2 if unit_type in upgraded else 1
        own = data.faction_card(faction, unit_type, level) if faction else None
        if own is not None:
            cards[unit_type] = own
        elif unit_type != "flagship":
            cards[unit_type] = data.generic(unit_type, level)
    return cards


def _printings(
    data: Ti4Data,
    named: Iterable[str],
    faction: str | None,
    cards: Mapping[str, UnitDef],
    where: str,
) -> dict[str, UnitDef]:
    """The unit cards a side uses instead of its faction's usual ones (``cards``: a Codex
    revision such as Iconoclast Omega, or an upgraded faction unit that ``upgrades`` cannot
    name, Memoria II or Prototype War Sun II), by unit type. Each is a card of the side's
    faction that replaces the card the faction would otherwise use for that unit type
    (docs/rulings.md 14S-1, 14R-7)."""
    chosen: dict[str, UnitDef] = {}
    for i, ident in enumerate(named):
        name = f"{where}.cards[{i}]"
        allowed = {
            u.id: u
            for u in data.units.values()
            if (u.source.startswith("codex") or _upgrade_beyond_upgrades(u))
            and u.faction is not None
            and (faction is None or u.faction == faction)
            and u.type in cards
            and cards[u.type].faction == u.faction
            and cards[u.type].id != u.id
        }
        if ident not in allowed:
            what = f"unknown card {shown(ident)}" if ident not in data.units else shown(ident)
            if ident in data.units and data.units[ident].faction != faction:
                owner = data.units[ident].faction or "no faction"
                side_is = faction or "no faction (set the side's faction)"
                why = f"{what} is a card of {owner}; this side is {side_is}"
            else:
                why = f"{what} is not another printing of one of this side's unit cards"
            listed = ", ".join(sorted(allowed)) or "none for this side"
            raise ScenarioError(name, f"{why}; allowed: {listed}")
        card = allowed[ident]
        if card.type in chosen:
            raise ScenarioError(name, f"a second card for the {card.type}")
        chosen[card.type] = card
    return chosen


def _upgrade_beyond_upgrades(card: UnitDef) -> bool:
    """Whether ``card`` is a faction's upgraded unit of a type ``upgrades`` cannot name (the
    Nomad's Memoria II, the Muaat's Prototype War Sun II): a side names it in ``cards``."""
    return card.upgrade_tech_prereqs is not None and card.type not in UPGRADABLE


def upgraded_card(data: Ti4Data, faction: str | None, unit: str) -> UnitDef | None:
    """The faction's upgraded card of a unit type ``upgrades`` cannot name, if it has one."""
    for card in data.units.values():
        if card.faction == faction and card.type == unit and _upgrade_beyond_upgrades(card):
            return card
    return None


def _side(
    data: Ti4Data,
    scenario: Scenario,
    side: Side,
    spec: SideSpec,
    system: StarSystem,
    planets: tuple[str, ...],
) -> SideSetup:
    where = side.value
    faction = spec.faction
    if faction is not None:
        _check_known(f"{where}.faction", faction, data.factions)
    for i, unit in enumerate(spec.upgrades):
        if unit not in UPGRADABLE:
            raise ScenarioError(
                f"{where}.upgrades[{i}]",
                f"{shown(unit)} has no upgrade; allowed: {', '.join(UPGRADABLE)}",
            )
    techs = []
    for i, tech in enumerate(spec.technologies):
        name = f"{where}.technologies[{i}]"
        if tech not in data.technologies:
            unit = _upgrade_of(tech)
            if unit in UPGRADABLE:
                raise ScenarioError(
                    name, f"{shown(tech)} is a unit upgrade: list '{unit}' under {where}.upgrades"
                )
            if unit in UNIT_TYPES:
                raise ScenarioError(
                    name, f"{shown(tech)} is a unit, not a technology: list it under {where}.units"
                )
        _check_known(name, tech, data.technologies)
        record = data.technologies[tech]
        if record.faction and faction and record.faction != faction:
            raise ScenarioError(
                name,
                f"{record.name} is a {record.faction} faction technology; this side is {faction}",
            )
        techs.append(tech)
    _check_technology_colours(data, spec, techs, where)
    cards = _cards(data, faction, spec.upgrades)
    cards.update(_printings(data, spec.cards or (), faction, cards, where))
    if articles_of_war.LAW in scenario.laws:
        cards = {unit: articles_of_war.stripped(card) for unit, card in cards.items()}
    held = _held(data, spec, where)
    conditions = _conditions(data, spec.conditions or (), f"{where}.conditions", "player")
    present = dict(spec.units)
    for unit, count in spec.planet_units.items():
        present[unit] = present.get(unit, 0) + count
    for planet in scenario.planets or ():
        if side is Side.DEFENDER:
            for unit, count in planet.defender.items():
                present[unit] = present.get(unit, 0) + count
    for unit in present:
        if unit not in UNIT_TYPES:
            raise ScenarioError(
                _unit_field(scenario, spec, where, unit),
                f"unknown unit; allowed: {', '.join(UNIT_TYPES)}",
            )
        if unit not in cards:
            raise ScenarioError(
                _unit_field(scenario, spec, where, unit),
                f"a flagship needs the side's faction (set {where}.faction)",
            )
        if unit == "flagship" and present[unit] > 1:
            raise ScenarioError(f"{where}.units.flagship", "a player has at most 1 flagship")
    for unit, hurt in spec.damaged.items():
        if unit not in present or hurt > present[unit]:
            raise ScenarioError(
                f"{where}.damaged.{field_key(unit)}",
                f"{hurt} damaged but only {present.get(unit, 0)} present",
            )
        if unit in cards and not cards[unit].sustain_damage:
            raise ScenarioError(
                f"{where}.damaged.{unit}",
                f"{cards[unit].name} has no SUSTAIN DAMAGE, so it cannot be damaged",
            )
    for unit in present:
        _check_abilities(cards[unit].abilities, f"{where}.units.{unit} ({cards[unit].name})")
    for unit, card in cards.items():
        if unit not in present:  # in reinforcements: only a DEPLOY can bring it in
            deploys = [a for a in card.abilities if a.name == DEPLOY]
            _check_abilities(deploys, f"{where}.faction ({faction}: {card.name}'s DEPLOY)")
    # Greyfire Mutagen played against the Yin: their faction abilities and technologies are
    # not in play (abilities/greyfire_mutagen.py), so they are no reason to refuse the battle
    opponent = side_spec(scenario, side.other)
    muted = faction == greyfire_mutagen.FACTION and greyfire_mutagen.CARD in (
        opponent.promissory_notes or ()
    )
    if faction is not None and not muted:
        _check_abilities(data.factions[faction].abilities, f"{where}.faction ({faction})")
    for i, tech in enumerate(techs):
        record = data.technologies[tech]
        if muted and record.faction:
            continue
        if record.combat == "rule" and record.handler not in HANDLERS:
            raise RuleNotImplemented(f"the technology {record.name}", f"{where}.technologies[{i}]")
    policy = _policy(scenario, spec, f"{where}.policy", system, planets)
    if scenario.battle == "space":
        cards.update(naazrokha_mech_flip.flipped_cards(data, cards))
        cards.update(nekro_flagship_ground_forces_fight.participant_cards(cards))
    if the_cavalry.CARD in held:  # after the flips: a Z-Grav Eidolon may be chosen (14CV-5)
        cards.update(_cavalry(data, scenario, spec, where, cards, present, conditions))
    if scenario.battle == "invasion" and side is Side.ATTACKER and spec.units.get("flagship"):
        # the Matriarch in the space area: fighters may be committed (docs/rulings.md 14M-1)
        cards.update(naalu_flagship_fighters_invade.committed_cards(cards))
    # unit types a unit becomes during the battle (The Cavalry's ship, the Z-Grav Eidolon,
    # ground forces fighting as ships with the Alastor, a fighter committed to a planet)
    changed = {unit: card.type for unit, card in cards.items() if unit not in UNIT_TYPES}
    return SideSetup(
        side=side,
        faction=faction,
        cards=cards,
        technologies=tuple(techs),
        policy=_ranked_alike(policy, changed),
        reinforcement_tokens=spec.reinforcement_tokens,
        held=held,
        conditions=conditions,
    )


def _cavalry(
    data: Ti4Data,
    scenario: Scenario,
    spec: SideSpec,
    where: str,
    cards: Mapping[str, UnitDef],
    present: Mapping[str, int],
    conditions: frozenset[str],
) -> dict[str, UnitDef]:
    """The unit types a ship becomes when The Cavalry is played on it (none when it cannot be
    played in this battle). A ship is still its unit type for the effects naming that type
    (``SideSetup.is_a``); one whose card has an ability whose handler does not treat it so
    yet is refused (abilities/the_cavalry.py ``SEES_TYPES``; docs/rulings.md 14CV-1)."""
    notes = list(spec.promissory_notes or ())
    field_name = f"{where}.promissory_notes[{notes.index(the_cavalry.CARD)}]"
    if spec.faction == the_cavalry.NOMAD:
        raise ScenarioError(field_name, "the Nomad cannot play its own promissory note")
    opponent = side_spec(scenario, Side(where).other).faction
    if not the_cavalry.usable(scenario.battle, opponent):
        return {}
    for unit in present:
        card = cards[unit]
        if not card.is_ship or card.type == "fighter":
            continue
        for ability in card.abilities:
            if ability.combat == "rule" and ability.handler not in the_cavalry.SEES_TYPES:
                raise RuleNotImplemented(
                    f"The Cavalry with {card.name} in the fleet (its ability {ability.handler} "
                    "names its unit type)",
                    field_name,
                )
    return the_cavalry.cavalry_cards(data, cards, the_cavalry.MEMORIA_II in conditions)


def _ranked_alike(policy: PolicyConfig, changed: Mapping[str, str]) -> PolicyConfig:
    """The policy with each unit type that a unit becomes during the battle (``cavalry_UNIT``)
    ranked in the casualty order right after the type it was."""
    if not changed:
        return policy
    order: list[str] = []
    for unit in policy.casualty_order:
        order.append(unit)
        order += [new for new, old in changed.items() if old == unit and new not in order]
    return replace(policy, casualty_order=tuple(order))


#: the scenario's lists of held cards, with the kind of card each takes
HELD_LISTS = (
    ("action_cards", "action_card"),
    ("promissory_notes", "promissory_note"),
    ("leaders", "leader"),
    ("relics", "relic"),
)


def _held(data: Ti4Data, spec: SideSpec, where: str) -> tuple[str, ...]:
    """The cards a side holds, checked: each a known card of the list's kind; one whose effect
    acts in a battle needs its handler (``RuleNotImplemented`` naming it otherwise)."""
    held: list[str] = []
    for field_name, kind in HELD_LISTS:
        for i, ident in enumerate(getattr(spec, field_name) or ()):
            name = f"{where}.{field_name}[{i}]"
            allowed = {k: c for k, c in data.cards.items() if c.kind == kind}
            _check_known(name, ident, allowed)
            card = data.cards[ident]
            if card.instead is not None:
                raise ScenarioError(name, card.instead)
            if card.combat == "rule" and card.handler not in HANDLERS:
                raise RuleNotImplemented(f"the {kind.replace('_', ' ')} {card.name}", name)
            for need in card.needs:
                if getattr(spec, need) is None:
                    raise ScenarioError(
                        f"{where}.{need}",
                        f"required: {card.name} ({name}) reads it, and the engine does not "
                        "guess it",
                    )
            held.append(ident)
    return tuple(held)


def _check_technology_colours(
    data: Ti4Data, spec: SideSpec, techs: Iterable[str], where: str
) -> None:
    """A side's ``technology_colours`` count at least the technologies it lists of each
    colour (unit upgrades have no colour)."""
    owned = spec.technology_colours
    if owned is None:
        return
    for colour, count in owned.model_dump().items():
        listed = [t for t in techs if data.technologies[t].color == colour]
        if len(listed) > count:
            raise ScenarioError(
                f"{where}.technology_colours.{colour}",
                f"{count}, but {where}.technologies lists {len(listed)} {colour} "
                f"technologies ({', '.join(listed)})",
            )


def _conditions(data: Ti4Data, named: Iterable[str], where: str, scope: str) -> frozenset[str]:
    """Conditions of a player or of the system, each a known one of that scope."""
    allowed = {k: c for k, c in data.conditions.items() if c.scope == scope}
    for i, ident in enumerate(named):
        _check_known(f"{where}[{i}]", ident, allowed)
    return frozenset(named)


def _unit_field(scenario: Scenario, spec: SideSpec, where: str, unit: str) -> str:
    """The field where a side's unit is listed: its ``units``, its ``planet_units``, or (the
    defender in an invasion) a planet's ``defender``."""
    if unit in spec.units:
        return f"{where}.units.{field_key(unit)}"
    if unit in spec.planet_units:
        return f"{where}.planet_units.{field_key(unit)}"
    for i, planet in enumerate(scenario.planets or ()):
        if unit in planet.defender:
            return f"planets[{i}].defender.{field_key(unit)}"
    return f"{where}.units.{field_key(unit)}"


def _upgrade_of(tech: str) -> str:
    """The unit type a technology name such as ``cruiser2``, ``cruiser_ii`` or ``Cruiser II``
    upgrades (or the name itself, normalised)."""
    name = "_".join(tech.lower().split())
    for suffix in ("_ii", "_2", "2"):
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


def _check_abilities(abilities: Iterable[Ability], where: str) -> None:
    for ability in abilities:
        if ability.combat == "rule" and ability.handler not in HANDLERS:
            label = ability.name or ability.text
            raise RuleNotImplemented(f"the ability '{label}'", where)


def _handlers(
    data: Ti4Data,
    scenario: Scenario,
    sides: Mapping[Side, SideSetup],
    laws: tuple[str, ...],
    system: StarSystem,
) -> tuple[Handler, ...]:
    found: list[Handler] = []
    if system.anomaly == "nebula":
        found.append(HANDLERS["nebula"](None))
    elected = scenario.elected or {}
    for law in laws:
        handler = data.laws[law].handler
        if data.laws[law].combat == "rule" and handler:
            owner = Side(elected[law]) if data.laws[law].elect == "player" else None
            found.append(HANDLERS[handler](owner))
    for side in SIDES:
        setup = sides[side]
        names: list[str] = []
        # Greyfire Mutagen played against the Yin: no Yin faction abilities or technologies
        muted = (
            setup.faction == greyfire_mutagen.FACTION
            and greyfire_mutagen.CARD in sides[side.other].held
        )
        if setup.faction and not muted:
            names += [
                a.handler
                for a in data.factions[setup.faction].abilities
                if a.combat == "rule" and a.handler
            ]
        names += [
            h
            for t in setup.technologies
            if data.technologies[t].combat == "rule"
            and (h := data.technologies[t].handler)
            and not (muted and data.technologies[t].faction)
        ]
        spec = side_spec(scenario, side)
        present = set(spec.units) | set(spec.planet_units)
        if side is Side.DEFENDER:  # an invasion's defender: its units on the planets too
            present |= {unit for planet in scenario.planets or () for unit in planet.defender}
        for unit in setup.cards:
            # a unit in the battle brings its abilities; one in reinforcements only its DEPLOY,
            # which puts it into the battle (the Letnev and Yin mechs)
            # (and the Watcher, from an adjacent system: the condition empyrean_mech_adjacent)
            names += [
                a.handler
                for a in setup.cards[unit].abilities
                if a.combat == "rule"
                and a.handler
                and (
                    unit in present
                    or a.name == DEPLOY
                    or (a.handler == watcher.ID and watcher.ADJACENT in setup.conditions)
                )
            ]
        names += [
            h
            for ident in setup.held
            if data.cards[ident].combat == "rule" and (h := data.cards[ident].handler)
        ]
        for name in dict.fromkeys(names):
            found.append(HANDLERS[name](side))
    # a handler that cannot act in this kind of battle is not in play (``Handler.battles``)
    return tuple(h for h in found if scenario.battle in h.battles)


def _initial_forces(
    scenario: Scenario,
    sides: Mapping[Side, SideSetup],
    planets: tuple[str, ...],
    handlers: tuple[Handler, ...],
) -> tuple[SideState, SideState, tuple[Mapping[str, int], ...], tuple[Mapping[str, int], ...]]:
    att, dfn = scenario.attacker, scenario.defender
    a_cards, d_cards = sides[Side.ATTACKER], sides[Side.DEFENDER]
    if scenario.battle == "space":
        states = [
            space_battle_units(setup.side.value, spec, setup.is_ground_force, setup.is_structure)
            for setup, spec in ((a_cards, att), (d_cards, dfn))
        ]
        return states[0], states[1], (), ()
    # invasion
    check_invasion_places(
        scenario,
        a_cards,
        d_cards,
        attacker_brings="ships and ground forces; its structures play no part",
        defender_has="infantry, mech, pds, space_dock",
    )
    attacker_space = forces_of(att.units, att.damaged)
    ground_in_space = {u: n for u, n in att.units.items() if a_cards.is_ground_force(u)}
    # units that may be allotted to bombard: a printed BOMBARDMENT, or one a handler of the
    # attacker's may give (Blitz: docs/rulings.md 14K-1)
    givers = [h for h in handlers if h.owner is Side.ATTACKER]
    bombarders = {
        u: n
        for u, n in att.units.items()
        if a_cards.card(u).bombardment is not None
        or any(h.gives_bombardment(a_cards, u) for h in givers)
    }
    if scenario.planets is None:
        defender_planets: tuple[Forces, ...] = (forces_of(dfn.units, dfn.damaged),)
        commits: tuple[Mapping[str, int], ...] = (ground_in_space,)
        bombard: tuple[Mapping[str, int], ...] = (bombarders,)
    else:
        if dfn.units:
            raise ScenarioError(
                "defender.units",
                "with planets listed, put the defender's units under planets[].defender",
            )
        if dfn.damaged:
            raise ScenarioError(
                "defender.damaged",
                "with planets listed, put the defender's damaged units under planets[].damaged",
            )
        for i, p in enumerate(scenario.planets):
            for unit in p.defender:
                if d_cards.is_ship(unit):
                    raise ScenarioError(f"planets[{i}].defender.{unit}", "ships are not on planets")
            for unit, hurt in p.damaged.items():
                if unit not in p.defender or hurt > p.defender[unit]:
                    raise ScenarioError(
                        f"planets[{i}].damaged.{field_key(unit)}",
                        f"{hurt} damaged but only {p.defender.get(unit, 0)} present",
                    )
                if not d_cards.card(unit).sustain_damage:
                    raise ScenarioError(
                        f"planets[{i}].damaged.{unit}",
                        f"{d_cards.card(unit).name} has no SUSTAIN DAMAGE, so it cannot be damaged",
                    )
        defender_planets = tuple(forces_of(p.defender, p.damaged) for p in scenario.planets)
        if len(scenario.planets) == 1:
            only = scenario.planets[0]
            commits = (only.commit if only.commit is not None else ground_in_space,)
            bombard = (only.bombarded_by if only.bombarded_by is not None else bombarders,)
        else:
            commits = tuple(p.commit or {} for p in scenario.planets)
            bombard = tuple(p.bombarded_by or {} for p in scenario.planets)
        _check_allocation("commit", commits, _committable(a_cards, att.units, ground_in_space))
        _check_allocation("bombarded_by", bombard, bombarders)
    planets_forces = tuple(Forces() for _ in planets)
    return (
        SideState(attacker_space, planets_forces),
        SideState(Forces(), defender_planets),
        commits,
        bombard,
    )


def _committable(
    cards: SideSetup, units: Mapping[str, int], ground_in_space: Mapping[str, int]
) -> dict[str, int]:
    """The attacker's units a planet's ``commit`` may name: its ground forces in the space
    area, and its fighters while its Matriarch is there (docs/rulings.md 14M-1)."""
    able = dict(ground_in_space)
    fighter = naalu_flagship_fighters_invade.FIGHTER
    if naalu_flagship_fighters_invade.COMMITTED in cards.cards and units.get(fighter):
        able[fighter] = units[fighter]
    return able


def _check_allocation(
    key: str, per_planet: tuple[Mapping[str, int], ...], available: Mapping[str, int]
) -> None:
    """Each planet's ``key`` names units the attacker has, and no more of a type over all
    planets than it has (the path names the planet where the total is passed)."""
    used: dict[str, int] = {}
    for i, alloc in enumerate(per_planet):
        for unit, count in alloc.items():
            if unit not in available:
                raise ScenarioError(
                    f"planets[{i}].{key}.{field_key(unit)}",
                    "the attacker has no such unit "
                    f"able to do that; allowed: {', '.join(available) or 'none'}",
                )
            used[unit] = used.get(unit, 0) + count
            if used[unit] > available[unit]:
                over = "" if used[unit] == count else " over the planets so far"
                raise ScenarioError(
                    f"planets[{i}].{key}.{unit}",
                    f"{used[unit]} allotted{over} but the attacker has {available[unit]}",
                )
