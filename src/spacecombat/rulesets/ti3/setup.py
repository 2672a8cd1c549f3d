"""A TI3 battle's fixed facts, built from a scenario: each side's unit cards, abilities and
policy, the system and its neighbours, the planets, the rule options. Bad input is refused here
with ``ScenarioError`` naming the field and what is allowed; a rule we do not implement, with
``RuleNotImplemented`` naming it."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TypeVar, cast

from spacecombat.core.errors import NothingToInvade, RuleNotImplemented, ScenarioError
from spacecombat.core.forces import Forces
from spacecombat.core.limits import shown
from spacecombat.core.policies import PolicyConfig
from spacecombat.core.pool import DicePool
from spacecombat.core.rulesdata import UnitDef
from spacecombat.core.sides import SIDES, Side, SideState
from spacecombat.core.state import CountedCards
from spacecombat.rulesets.setup import (
    check_invasion_places,
    check_policy_names,
    field_key,
    merged_policy,
    policy_config,
    side_spec,
)
from spacecombat.rulesets.ti3 import gravity_rift, ion_storm
from spacecombat.rulesets.ti3.abilities import HANDLERS
from spacecombat.rulesets.ti3.abilities.base import Handler, RollContext
from spacecombat.rulesets.ti3.cards import CARDS, touch_of_genius
from spacecombat.rulesets.ti3.laws import law_handlers, leaving_systems, restrict_bombardment
from spacecombat.rulesets.ti3.rules import (
    UNIT_TYPES,
    Ti3Data,
    Ti3Options,
    flagship_id,
    load,
    options,
)
from spacecombat.rulesets.ti3.state import GENIUS, Phase, Ti3State
from spacecombat.scenario.checks import forces as forces_of
from spacecombat.scenario.checks import planet_names, space_battle_units
from spacecombat.scenario.schema import AdjacentSystemSpec, PolicySpec, Scenario, SideSpec

T = TypeVar("T")
_MISSING = object()

#: The pre-combat steps of a space battle in the order ti3-combat.md lists them (the stock
#: defender's order when its policy names none).
PRE_COMBAT_STEPS = ("anti_fighter_barrage", "assault_cannon", "mentak")

#: Every pre-combat step a policy may name: those above, the Shattered Empire Sabotage Run
#: (an option; it comes last in the spec's list: procedures/sabotage_run.py) and the law
#: Minister of War's hit (not in the spec's list: after it; procedures/minister_of_war.py)
POLICY_PRE_COMBAT_STEPS = (*PRE_COMBAT_STEPS, "sabotage_run", "minister_of_war")

#: Anomalies a TI3 battle may be fought in (ti3-facts.md 4.4: the nebula's effect is known;
#: the ion storm's, docs/rulings.md 27I).
ANOMALIES = ("none", "nebula", ion_storm.ANOMALY)

#: Anomalies no ship may end its move in, so no battle can happen there (docs/rulings.md T18):
#: why, in the project's words.
CLOSED_ANOMALIES = {
    "supernova": "no battle can happen in a supernova: no ship may move into one",
    "asteroid_field": (
        "no battle can happen in an asteroid field: no ship may move into one, and Antimass "
        "Deflectors lets ships move through asteroid fields but never end their move there"
    ),
}


@dataclass(frozen=True, eq=False)
class Ti3Side(CountedCards):
    """What one player brings that does not change during the battle."""

    side: Side
    cards: Mapping[str, UnitDef]
    technologies: frozenset[str]
    faction: str | None
    handlers: frozenset[str]
    policy: PolicyConfig
    fleet_supply: int | None
    #: the action cards held that a battle plays, sorted (rulesets/ti3/cards; issue 27)
    held: tuple[str, ...] = ()
    #: the cards of the discard pile its Touch of Genius may copy, sorted (27S-36)
    genius: tuple[str, ...] = ()

    def has(self, handler: str) -> bool:
        return handler in self.handlers

    def holds(self, card: str) -> bool:
        """Whether the side holds ``card`` or may play it as Touch of Genius's copy."""
        return card in self.held or card in self.genius


@dataclass(frozen=True, eq=False)
class Ti3Setup:
    """Everything about a TI3 battle that does not change while it is fought."""

    kind: str
    sides: Mapping[Side, Ti3Side]
    options: Ti3Options
    system: str
    anomaly: str
    adjacent: tuple[AdjacentSystemSpec, ...]
    planets: tuple[str, ...]
    #: per planet, what the attacker's bombarding units are
    bombarded_by: tuple[Mapping[str, int], ...]
    handlers: tuple[Handler, ...]
    pre_combat: tuple[str, ...]
    initial: Ti3State
    #: the active system's wormholes (``system.wormholes``; Dimensional Splicers reads them:
    #: docs/rulings.md 27S-33)
    wormholes: tuple[str, ...] = ()

    def side(self, side: Side) -> Ti3Side:
        return self.sides[side]

    def modifier(self, roll: RollContext) -> int:
        return sum(h.modifier(roll) for h in self.handlers)

    @cached_property
    def pools(self) -> dict[Hashable, DicePool]:
        """Dice pools already made, by what they depend on (``procedures/common.pool``)."""
        return {}

    @cached_property
    def _memo(self) -> dict[Hashable, object]:
        return {}

    def remembered(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, computed once for ``key`` (a value of the setup and ``key`` alone)."""
        known = self._memo.get(key, _MISSING)
        if known is _MISSING:
            known = self._memo[key] = make()
        return cast("T", known)

    def extra_dice(self, roll: RollContext) -> int:
        return sum(h.extra_dice(roll) for h in self.handlers)


def build(scenario: Scenario) -> Ti3Setup:
    """Check a TI3 scenario and build its setup."""
    data = load()
    rule_options = options(dict(scenario.options or {}))
    in_force = law_handlers(scenario)  # the political cards in force (laws.py; 27Z)
    if scenario.system.features is not None:
        raise ScenarioError("system.features", "a TI4 key; TI3 does not use it")
    for i, planet in enumerate(scenario.planets or ()):
        if planet.traits is not None:
            raise ScenarioError(f"planets[{i}].traits", "a TI4 key; TI3 does not use it")
    anomaly = scenario.system.anomaly
    if anomaly in CLOSED_ANOMALIES:
        raise ScenarioError("system.anomaly", CLOSED_ANOMALIES[anomaly])
    if anomaly not in (*ANOMALIES, gravity_rift.ANOMALY):
        raise RuleNotImplemented(f"the TI3 {anomaly.replace('_', ' ')}", "system.anomaly")
    if anomaly == ion_storm.ANOMALY:
        ion_storm.check_places(scenario, rule_options)  # no planet there (27I-3)
    sides = {
        side: _side(data, scenario, side, side_spec(scenario, side), rule_options) for side in SIDES
    }
    handlers: list[Handler] = list(in_force)
    if anomaly == "nebula":
        handlers.append(HANDLERS["nebula"](None))
    for side in SIDES:
        handlers.extend(HANDLERS[h](side) for h in sorted(sides[side].handlers))
    names = planet_names(scenario)
    if scenario.battle == "space":
        attacker, defender = (_space_forces(sides[s], side_spec(scenario, s)) for s in SIDES)
        bombard: tuple[Mapping[str, int], ...] = ()
        first = Phase.PDS_FIRE
        if rule_options.check_fleets_before_battle:
            first = Phase.FLEET_CHECK  # before the battle (procedures/fleet_check.py)
    else:
        attacker, defender, bombard = _invasion_forces(scenario, sides, names, rule_options)
        bombard = restrict_bombardment(scenario, bombard, defender.planets)  # 27Z-10
        first = Phase.BOMBARDMENT
    initial = Ti3State(
        first,
        attacker,
        defender,
        step="before" if first is Phase.FLEET_CHECK else "",
        ground_rounds=(0,) * len(names) if scenario.battle == "invasion" else (),
        hands=(sides[Side.ATTACKER].held, sides[Side.DEFENDER].held),
        genius=(sides[Side.ATTACKER].genius, sides[Side.DEFENDER].genius),
    )
    pre_combat = (
        _pre_combat(sides, attacker, defender, rule_options, _minister(in_force))
        if scenario.battle == "space"
        else ()
    )
    if anomaly == ion_storm.ANOMALY:
        pre_combat = ion_storm.pre_combat_steps(pre_combat, rule_options)  # 27J-2
    setup = Ti3Setup(
        kind=scenario.battle,
        sides=sides,
        options=rule_options,
        system=scenario.system.name,
        anomaly=anomaly,
        adjacent=leaving_systems(scenario),  # none with Code of Honor (27Z-9)
        planets=names,
        bombarded_by=bombard,
        handlers=tuple(handlers),
        pre_combat=pre_combat,
        initial=initial,
        wormholes=tuple(scenario.system.wormholes or ()),
    )
    return setup


def _van_hauge_units(spec: SideSpec) -> bool:
    """Whether a side has ground forces or shock troops in space or on the system's planets
    that Van Hauge may make fight as fighters (27S-43, 27T-15)."""
    return any(
        spec.units.get(u, 0) or spec.planet_units.get(u, 0) for u in ("ground_force", "shock_troop")
    )


#: keys of a side that only TI4 reads (cards held other than action cards, what a player may
#: spend, conditions)
_TI4_SIDE_KEYS = (
    "promissory_notes",
    "leaders",
    "relics",
    "trade_goods",
    "resources",
    "technology_colours",
    "technology_specialties",
    "conditions",
    "cards",
)


def _side(
    data: Ti3Data, scenario: Scenario, side: Side, spec: SideSpec, rule_options: Ti3Options
) -> Ti3Side:
    where = side.value
    if spec.upgrades:
        raise ScenarioError(f"{where}.upgrades", "TI3 has no unit upgrades")
    if spec.reinforcement_tokens is not None:
        raise ScenarioError(f"{where}.reinforcement_tokens", "a TI4 key; TI3 does not use it")
    for key in _TI4_SIDE_KEYS:
        if getattr(spec, key) is not None:
            raise ScenarioError(f"{where}.{key}", "a TI4 key; TI3 does not use it")
    handlers: set[str] = set()
    faction = spec.faction
    if faction is not None and faction not in data.factions:
        allowed = ", ".join(sorted(data.factions))
        raise ScenarioError(
            f"{where}.faction", f"unknown TI3 race {shown(faction)}; allowed: {allowed}"
        )
    for i, tech in enumerate(spec.technologies):
        name = f"{where}.technologies[{i}]"
        if tech not in data.technologies:
            # the general technologies and the side's race's (racial ones need their race)
            allowed = ", ".join(
                sorted(t for t, r in data.technologies.items() if r.faction in (None, faction))
            )
            more = "" if faction else " (and a race's racial technologies, with its faction)"
            raise ScenarioError(
                name, f"unknown TI3 technology {shown(tech)}; allowed: {allowed}{more}"
            )
        record = data.technologies[tech]
        if record.faction is not None and record.faction != faction:
            race = data.factions[record.faction].name
            raise ScenarioError(
                name,
                f"{record.name} is a racial technology of {race}: only a side with faction "
                f"{record.faction} holds it (docs/rulings.md 27R-14)",
            )
        if record.combat == "rule":
            if record.handler not in HANDLERS:
                raise RuleNotImplemented(f"the technology {record.name}", name)
            handlers.add(record.handler)
    if faction is not None:
        # the race's abilities (after its technologies: a racial technology names its own
        # refusal, even for a race that is refused)
        for ability in data.factions[faction].abilities:
            if ability.combat == "rule":
                if ability.handler not in HANDLERS:
                    name = data.factions[faction].name
                    raise RuleNotImplemented(f"{name}: {ability.text}", f"{where}.faction")
                handlers.add(ability.handler)
    for field_name, counts in (
        ("units", spec.units),
        ("planet_units", spec.planet_units),
        ("damaged", spec.damaged),
    ):
        _check_units(f"{where}.{field_name}", counts, rule_options)
    cards = _race_cards(data, spec, where, faction, handlers, scenario.battle == "space")
    present = dict(spec.units)
    for unit, count in spec.planet_units.items():
        present[unit] = present.get(unit, 0) + count
    _check_damaged_cards(cards, f"{where}.damaged", spec.damaged, present)
    fleet_supply = spec.fleet_supply
    if fleet_supply is not None and "letnev_fleet_supply" in handlers:
        fleet_supply += 1  # the Barony of Letnev: one more ship than its counters
    held = _held(data, spec, where)
    genius = _genius(data, scenario, spec, where, held)
    return Ti3Side(
        side=side,
        cards=cards,
        technologies=frozenset(spec.technologies),
        faction=faction,
        handlers=frozenset(handlers),
        policy=_policy(scenario, spec, where, rule_options),
        fleet_supply=fleet_supply,
        held=held,
        genius=genius,
    )


def _genius(
    data: Ti3Data, scenario: Scenario, spec: SideSpec, where: str, held: tuple[str, ...]
) -> tuple[str, ...]:
    """The cards of the discard pile (``discard_pile``) a side's Touch of Genius may copy
    (docs/rulings.md 27S-36): those that act in a battle, when it holds the card and has the 3
    influence (``influence``) to spend; none else. A copy of a card that acts but is not
    implemented is refused by name."""
    pile = _discard_pile(data, scenario)
    if GENIUS not in held or not pile:
        return ()
    if (spec.influence or 0) < touch_of_genius.INFLUENCE:
        return ()
    copies = []
    for i, card in enumerate(pile):
        record = data.cards[card]
        if record.combat != "rule":
            continue
        if record.handler not in CARDS:
            raise RuleNotImplemented(
                f"Touch of Genius copying the TI3 action card {record.name}", f"discard_pile[{i}]"
            )
        copies.append(card)
    return tuple(sorted(set(copies)))


def _discard_pile(data: Ti3Data, scenario: Scenario) -> tuple[str, ...]:
    """The scenario's discard pile, checked: TI3 action cards, not Touch of Genius itself (it
    copies "any other Action Card")."""
    pile = tuple(scenario.discard_pile or ())
    for i, card in enumerate(pile):
        field = f"discard_pile[{i}]"
        if card not in data.cards:
            allowed = ", ".join(sorted(data.cards))
            raise ScenarioError(field, f"unknown TI3 action card {shown(card)}; allowed: {allowed}")
        if card == GENIUS:
            raise ScenarioError(field, "Touch of Genius copies another card, not itself")
    return pile


def _held(data: Ti3Data, spec: SideSpec, where: str) -> tuple[str, ...]:
    """The action cards a side holds that a battle plays (data/action_cards.toml): a card that
    never acts in a battle is accepted and changes nothing; one that acts but is not
    implemented is refused by name."""
    held = []
    for i, card in enumerate(spec.action_cards or ()):
        field = f"{where}.action_cards[{i}]"
        if card not in data.cards:
            allowed = ", ".join(sorted(data.cards))
            raise ScenarioError(field, f"unknown TI3 action card {shown(card)}; allowed: {allowed}")
        record = data.cards[card]
        if record.combat != "rule":
            continue
        if record.handler not in CARDS:
            raise RuleNotImplemented(f"the TI3 action card {record.name}", field)
        held.append(card)
    return tuple(sorted(held))


def _race_cards(
    data: Ti3Data,
    spec: SideSpec,
    where: str,
    faction: str | None,
    handlers: set[str],
    space: bool,
) -> Mapping[str, UnitDef]:
    """The side's unit cards: TI3's, with its race's flagship as ``flagship`` (Shards of the
    Throne; docs/rulings.md 27R-1) and its racial technologies' changes to the cards. The
    handlers of the flagship's abilities join ``handlers``."""
    cards = data.units
    named = any("flagship" in counts for counts in (spec.units, spec.planet_units, spec.damaged))
    if named:
        field_name = f"{where}.units.flagship"
        if faction is None:
            raise ScenarioError(
                field_name, f"a flagship is its race's own ship: set {where}.faction"
            )
        race = data.factions[faction].name
        if sum(counts.get("flagship", 0) for counts in (spec.units, spec.planet_units)) > 1:
            raise ScenarioError(field_name, "a race has one flagship")
        card = data.units.get(flagship_id(faction))
        if card is None:
            # The Lazax, the one race without a flagship card, are played only in the Fall of
            # the Empire scenario, which uses no Shards of the Throne option but Mechanized
            # Units (docs/rulings.md 27X-4).
            raise ScenarioError(field_name, f"{race} have no flagship (docs/rulings.md 27X-4)")
        for ability in card.abilities:
            if ability.combat != "rule":
                continue
            if ability.handler not in HANDLERS:
                raise RuleNotImplemented(
                    f"{card.name}, the flagship of {race}: {ability.text}", field_name
                )
            handlers.add(ability.handler)
        cards = {**cards, "flagship": card}
    if "mark_ii_advanced_carriers" in handlers:
        # Mark II Advanced Carriers: carriers carry 8 and have SUSTAIN DAMAGE (27R-12)
        carrier = cards["carrier"].model_copy(update={"capacity": 8, "sustain_damage": True})
        cards = {**cards, "carrier": carrier}
    return cards


def _check_units(where: str, counts: Mapping[str, int], rule_options: Ti3Options) -> None:
    """Every unit named is a TI3 unit we implement."""
    for unit in counts:
        if unit not in UNIT_TYPES:
            raise ScenarioError(
                f"{where}.{field_key(unit)}", f"unknown unit; allowed: {', '.join(UNIT_TYPES)}"
            )
        if unit == "shock_troop" and not rule_options.shock_troops:
            raise ScenarioError(
                f"{where}.shock_troop",
                "Shock Troops are a Shattered Empire option: set options.shock_troops: true",
            )


def _check_damaged(
    data: Ti3Data, where: str, damaged: Mapping[str, int], present: Mapping[str, int]
) -> None:
    """Only units with SUSTAIN DAMAGE can be damaged, and no more than are present."""
    _check_damaged_cards(data.units, where, damaged, present)


def _check_damaged_cards(
    cards: Mapping[str, UnitDef], where: str, damaged: Mapping[str, int], present: Mapping[str, int]
) -> None:
    """``_check_damaged`` with a side's own cards (its flagship, its carriers)."""
    for unit, count in damaged.items():
        if not cards[unit].sustain_damage:
            raise ScenarioError(f"{where}.{unit}", f"a {unit} cannot be damaged")
        if count > present.get(unit, 0):
            raise ScenarioError(
                f"{where}.{unit}", f"{count} damaged but only {present.get(unit, 0)} present"
            )


def _policy(
    scenario: Scenario, spec: SideSpec, where: str, rule_options: Ti3Options
) -> PolicyConfig:
    def check(layer: PolicySpec, name: str) -> None:
        _check_policy(scenario, layer, name)
        # the shared ``policy`` speaks for both players; a side's own, for that side alone
        specs = (spec,) if name != "policy" else (scenario.attacker, scenario.defender)
        named = _decisions(specs, rule_options, scenario.discard_pile or ())
        if _elected_minister(scenario, rule_options, specs):
            named["minister_of_war"] = (
                "spending a command counter for Minister of War's hit (docs/rulings.md 27M-1)"
            )
        _check_play(layer, name, named)

    config = merged_policy(scenario, spec, f"{where}.policy", check)
    stock = policy_config(
        config, pre_combat_order=tuple(config.pre_combat_order or PRE_COMBAT_STEPS)
    )
    if (
        scenario.battle == "invasion"
        and config.casualty_order is None
        and "graviton_negator" in spec.technologies
    ):
        # Graviton Negator's fighters in invasion combat are taken before ground units: only
        # these take the planet, and a fighter hits less often (docs/rulings.md 27Y-4)
        order = ("fighter", *(u for u in stock.casualty_order if u != "fighter"))
        stock = replace(stock, casualty_order=order)
    return stock


def _elected_minister(
    scenario: Scenario, rule_options: Ti3Options, specs: tuple[SideSpec, ...]
) -> bool:
    """Whether one of ``specs`` is Minister of War's elected player with a counter to spend
    (in the space battle, or a tactical action's: its invasion part reads the same policy):
    its ``policy.play`` may name ``minister_of_war`` (27M-1)."""
    elected = (scenario.elected or {}).get("minister_of_war")
    if "minister_of_war" not in scenario.laws or elected is None:
        return False
    if not rule_options.minister_of_war_has_counter:
        return False
    return any(spec is side_spec(scenario, Side(elected)) for spec in specs)


def _check_policy(scenario: Scenario, layer: PolicySpec, where: str) -> None:
    check_policy_names(layer, where, UNIT_TYPES, [s.name for s in scenario.system.adjacent])
    for i, step in enumerate(layer.pre_combat_order or ()):
        if step not in POLICY_PRE_COMBAT_STEPS:
            raise ScenarioError(
                f"{where}.pre_combat_order[{i}]",
                f"unknown step {shown(step)}; allowed: {', '.join(POLICY_PRE_COMBAT_STEPS)}",
            )
    if layer.planet_order:
        raise ScenarioError(f"{where}.planet_order", "TI3 fights its planets in the order listed")
    if layer.retreat_takes_planet_ground_forces is not None:
        raise ScenarioError(
            f"{where}.retreat_takes_planet_ground_forces", "a TI4 key; a TI3 fleet moves whole"
        )


def _decisions(
    specs: tuple[SideSpec, ...], rule_options: Ti3Options, discards: Sequence[str] = ()
) -> dict[str, str]:
    """What ``policy.play`` may name for these sides: each decision they may be asked, by
    name, with what it is."""
    cards = load().cards
    named = {
        c: cards[c].name
        for spec in specs
        for c in spec.action_cards or ()
        if c in cards and cards[c].handler in CARDS and c != GENIUS
    }
    if any(GENIUS in (spec.action_cards or ()) for spec in specs):
        # Touch of Genius plays under the name of the card it copies (27S-36)
        named.update(
            {
                c: f"{cards[c].name} (Touch of Genius)"
                for c in discards
                if c in cards and cards[c].handler in CARDS and c != GENIUS
            }
        )
    if rule_options.sabotage_runs:
        named["sabotage_run"] = "sending fighters on a sabotage run (Shattered Empire option)"
    if any(spec.faction == "yin" for spec in specs):
        named["yin_sacrifice"] = "the Yin sacrifice before round 2 (docs/rulings.md 27S-15)"
    if any("dimensional_splicers" in spec.technologies for spec in specs):
        named["dimensional_splicers"] = (
            "a hit on an enemy ship with Dimensional Splicers (docs/rulings.md 27S-33)"
        )
    if any("exotrireme" in spec.technologies for spec in specs):
        named["exotrireme"] = "giving up a dreadnought with Exotrireme (docs/rulings.md 27S-14)"
    if any(
        spec.faction == "yin" and spec.units.get("flagship", 0) and _van_hauge_units(spec)
        for spec in specs
    ):
        named["yin_flagship"] = (
            "Van Hauge's ground forces in space fighting as fighters (docs/rulings.md 27S-43)"
        )
    return named


def _check_play(layer: PolicySpec, where: str, decisions: Mapping[str, str]) -> None:
    """``policy.play`` names only decisions its players may be asked (a card they hold, the
    sabotage run when the option is on), each with a value it takes."""
    for name, when in (layer.play or {}).items():
        field = f"{where}.play.{field_key(name)}"
        if name not in decisions:
            allowed = ", ".join(sorted(decisions)) or "none here"
            raise ScenarioError(
                field,
                f"{shown(name)} is no decision of this player in this battle (a TI3 action "
                f"card they hold, exotrireme or dimensional_splicers with the technology, "
                f"yin_flagship with Van Hauge and ground forces in space, "
                f"sabotage_run with options.sabotage_runs, or minister_of_war for its elected "
                f"player); allowed: {allowed}",
            )
        if when == "with_planets":
            raise ScenarioError(field, "'with_planets' is a TI4 key (The Alastor)")
        if name == "sabotage_run" and when != "never":
            raise ScenarioError(field, "allowed: 'never' (a sabotage run is made before round 1)")
        if name == "minister_of_war" and when != "never":
            raise ScenarioError(
                field, "allowed: 'never' (Minister of War's hit is inflicted before round 1)"
            )


def _space_forces(cards: Ti3Side, spec: SideSpec) -> SideState:
    """A space battle: ships (and carried ground forces) in space; PDS, space docks and
    ``planet_units`` on the system's planets (one area: only their PDS and docks matter)."""
    where = cards.side.value
    units = space_battle_units(where, spec, cards.is_ground_force, cards.is_structure)
    if not units.space.total(cards.is_ship):
        raise ScenarioError(f"{where}.units", "a space battle needs ships on both sides")
    return units


def _invasion_forces(
    scenario: Scenario,
    sides: Mapping[Side, Ti3Side],
    names: tuple[str, ...],
    rule_options: Ti3Options,
) -> tuple[SideState, SideState, tuple[Mapping[str, int], ...]]:
    """An invasion: the attacker's ships in space, its committed ground units landed on their
    planets; the defender's ground units and structures on each planet."""
    att, dfn = scenario.attacker, scenario.defender
    a, d = sides[Side.ATTACKER], sides[Side.DEFENDER]
    check_invasion_places(
        scenario,
        a,
        d,
        attacker_brings="ships and ground units",
        defender_has="ground_force, shock_troop, mechanized_unit, pds, space_dock",
    )
    ground = {u: n for u, n in att.units.items() if a.is_ground_force(u)}
    bombarders = {u: n for u, n in att.units.items() if a.card(u).bombardment is not None}
    defenders: list[Forces] = []
    commits: list[Mapping[str, int]] = []
    named: list[Mapping[str, int]] = []  # the commits as given (fighters included)
    bombard: list[Mapping[str, int]] = []
    if scenario.planets is None:
        defenders.append(forces_of(dfn.units, dfn.damaged))
        commits.append(ground)
        landing = any(n > 0 for n in ground.values())
        bombard.append(_default_bombarders(bombarders, defenders[0], a, landing, rule_options))
    else:
        if dfn.units:
            raise ScenarioError(
                "defender.units", "with planets listed, give each planet's units in its defender"
            )
        for i, planet in enumerate(scenario.planets):
            for key in ("defender", "damaged", "commit", "bombarded_by"):
                _check_units(f"planets[{i}].{key}", getattr(planet, key) or {}, rule_options)
            _check_damaged(load(), f"planets[{i}].damaged", planet.damaged, planet.defender)
            for unit in planet.defender:
                if d.is_ship(unit):
                    raise ScenarioError(
                        f"planets[{i}].defender.{unit}", "only ground units and structures"
                    )
            forces = forces_of(planet.defender, planet.damaged)
            defenders.append(forces)
            if planet.commit is None and len(scenario.planets) > 1:
                raise ScenarioError(
                    f"planets[{i}].commit", "with several planets, say which units land on each"
                )
            commit = ground if planet.commit is None else planet.commit
            landing = landing_ground(commit, a)
            for unit in commit:
                if unit == "fighter" and a.has("graviton_negator"):
                    # Graviton Negator: fighters join the invasion combat (27Y-1, 27Y-2)
                    continue
                if not a.is_ground_force(unit):
                    raise ScenarioError(
                        f"planets[{i}].commit.{unit}",
                        "only ground units land on a planet"
                        + (" (fighters join with Graviton Negator)" if unit == "fighter" else ""),
                    )
            named.append(commit)
            if not landing:
                # no ground unit lands (none named, or none left after a tactical action's
                # space battle): no invasion combat there for fighters to join (27Y-2)
                commit = {u: n for u, n in commit.items() if u != "fighter"}
            commits.append(commit)
            if planet.bombarded_by is None:
                # one planet: every unit that may bombard does; several: say which (T12)
                chosen = {}
                if len(scenario.planets) == 1:
                    chosen = _default_bombarders(bombarders, forces, a, landing, rule_options)
            else:
                chosen = dict(planet.bombarded_by)
                _check_bombarders(chosen, forces, a, landing, rule_options, f"planets[{i}]")
            bombard.append(chosen)
    joining = {"fighter": att.units.get("fighter", 0)} if a.has("graviton_negator") else {}
    _check_totals("commit", named or commits, {**ground, **joining})
    _check_totals("bombarded_by", bombard, bombarders)
    landed = {u: sum(c.get(u, 0) for c in commits) for u in {**ground, **joining}}
    space = {u: n - landed.get(u, 0) for u, n in att.units.items()}
    # Damaged ground units (Mechanized Units) land first, on the planets in the order listed;
    # any left over stay in space.
    left = dict(att.damaged)
    landing_forces = []
    for landed_here in commits:
        hurt = {u: min(left.get(u, 0), n) for u, n in landed_here.items() if a.is_ground_force(u)}
        for unit, n in hurt.items():
            left[unit] = left.get(unit, 0) - n
        landing_forces.append(forces_of(dict(landed_here), hurt))
    attacker = SideState(forces_of(space, left), tuple(landing_forces))
    defender = SideState(Forces(), tuple(defenders))
    if not any(landed.values()) and not any(bombard):
        raise NothingToInvade(
            "attacker.units", "an invasion needs ground units to land, or units to bombard"
        )
    return attacker, defender, tuple(bombard)


def landing_ground(commit: Mapping[str, int], cards: Ti3Side) -> bool:
    """Whether a planet's ``commit`` lands ground units (not only Graviton Negator's
    fighters)."""
    return any(n > 0 for u, n in commit.items() if cards.is_ground_force(u))


def _can_bombard(
    unit: str, planet: Forces, cards: Ti3Side, invading: bool, rule_options: Ti3Options
) -> str | None:
    """Why ``unit`` may not bombard ``planet``, or ``None`` if it may (ti3-combat.md,
    Bombardments)."""
    if cards.card(unit).bombardment is None:
        return f"a {unit} cannot bombard"
    if unit == "war_sun":
        return None  # War Suns may bombard planets even with PDS, even with no invasion
    # Arc Secundus bombards through the planetary shield (27R-18)
    through_shield = unit == "flagship" and cards.has("letnev_flagship")
    if planet.count("pds") and not cards.has("graviton_negator") and not through_shield:
        return (
            "dreadnoughts may not bombard a planet with an enemy PDS (Graviton Negator lifts this)"
        )
    if not invading and not rule_options.dreadnought_bombard_without_invasion:
        return (
            "only war suns bombard where no invasion follows "
            "(options.dreadnought_bombard_without_invasion)"
        )
    return None


def _default_bombarders(
    bombarders: Mapping[str, int],
    planet: Forces,
    cards: Ti3Side,
    invading: bool,
    rule_options: Ti3Options,
) -> dict[str, int]:
    return {
        u: n
        for u, n in bombarders.items()
        if _can_bombard(u, planet, cards, invading, rule_options) is None
    }


def _check_bombarders(
    chosen: Mapping[str, int],
    planet: Forces,
    cards: Ti3Side,
    invading: bool,
    rule_options: Ti3Options,
    where: str,
) -> None:
    for unit in chosen:
        why = _can_bombard(unit, planet, cards, invading, rule_options)
        if why is not None:
            raise ScenarioError(f"{where}.bombarded_by.{unit}", why)


def _check_totals(name: str, per_planet: list[Mapping[str, int]], have: Mapping[str, int]) -> None:
    """No more of a unit type named over the planets than the attacker brings (the path names
    the planet where the total is passed)."""
    used: dict[str, int] = {}
    for i, planet in enumerate(per_planet):
        for unit, count in planet.items():
            used[unit] = used.get(unit, 0) + count
            if used[unit] > have.get(unit, 0):
                over = "" if used[unit] == count else " over the planets so far"
                raise ScenarioError(
                    f"planets[{i}].{name}.{unit}",
                    f"{used[unit]} named{over} but the attacker brings {have.get(unit, 0)}",
                )


def _minister(in_force: Sequence[Handler]) -> Side | None:
    """The player Minister of War elects, if the law is in force (27M-1)."""
    return next((h.owner for h in in_force if h.id == "minister_of_war"), None)


def _pre_combat(
    sides: Mapping[Side, Ti3Side],
    attacker: SideState,
    defender: SideState,
    rule_options: Ti3Options,
    minister: Side | None = None,
) -> tuple[str, ...]:
    """The pre-combat steps this battle can have, in the spec's order (then Minister of War's
    hit, ``minister`` the elected player: 27M-1)."""
    space = {Side.ATTACKER: attacker.space, Side.DEFENDER: defender.space}
    planets = {Side.ATTACKER: attacker.planets, Side.DEFENDER: defender.planets}
    steps = []

    def van_hauge_may_fight(s: Side) -> bool:
        # Van Hauge's ground forces in space (or taken up from the planets) may fight as
        # fighters (27S-43, 27T-15)
        return bool(
            sides[s].has("yin_flagship")
            and space[s].count("flagship")
            and any(
                area.count(u)
                for area in (space[s], *planets[s])
                for u in ("ground_force", "shock_troop")
            )
        )

    if any(
        any(space[s].count(u) for u in barrage_units(sides[s]))
        and (space[s.other].count("fighter") or van_hauge_may_fight(s.other))
        for s in SIDES
    ):
        steps.append("anti_fighter_barrage")
    if any(sides[s].has("assault_cannon") and space[s].count("dreadnought") for s in SIDES):
        steps.append("assault_cannon")
    if any(
        sides[s].has("mentak") and (space[s].count("cruiser") or space[s].count("destroyer"))
        for s in SIDES
    ):
        steps.append("mentak")
    # Sabotage Runs (Shattered Empire option): a player's fighters (or Van Hauge's units
    # fighting as fighters: 27T-16) against an enemy War Sun
    if rule_options.sabotage_runs and any(
        (space[s].count("fighter") or van_hauge_may_fight(s)) and space[s.other].count("war_sun")
        for s in SIDES
    ):
        steps.append("sabotage_run")
    # Minister of War: its elected player may spend a command counter of its strategy
    # allocation for 1 hit on the enemy fleet (27M-1), if it has one (27M-2)
    if minister is not None and rule_options.minister_of_war_has_counter:
        steps.append("minister_of_war")
    return tuple(steps)


def barrage_units(cards: Ti3Side) -> tuple[str, ...]:
    """The unit types of a side that fire an anti-fighter barrage: destroyers, and a flagship
    whose card has one (the Son of Ragh, docs/rulings.md 27R-9)."""
    return tuple(u for u in ("destroyer", "flagship") if cards.card(u).anti_fighter_barrage)


def why_not_destination(side: Side, system: AdjacentSystemSpec) -> str | None:
    """Why ``side`` may not withdraw or retreat to ``system``, or ``None`` if it may: it must be
    an adjacent system the player activated before (it holds their command counter) with no
    enemy ships (ti3-combat.md, Execute withdrawals; ti3-facts.md section 6), and not one no
    ship may end its move in (a supernova or an asteroid field, docs/rulings.md T18)."""
    if side.value not in system.command_tokens:
        return "holds no command counter of the player: it was not activated before"
    if any(p != side.value for p in system.ships):
        return "holds another player's ships"
    if system.anomaly == "supernova":
        return "is a supernova"
    if system.anomaly == "asteroid_field":
        return "is an asteroid field, where no ship may end its move"
    return None
