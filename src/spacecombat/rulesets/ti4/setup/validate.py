"""Reading a TI4 scenario against the rules data: what is allowed, refused with
``ScenarioError`` naming the field and what is allowed, or with ``RuleNotImplemented`` naming a
rule we do not implement. Each function reads or checks one part of the scenario; building the
battle from what they read is setup/building.py."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import get_args

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.limits import shown
from spacecombat.core.policies import PolicyConfig
from spacecombat.core.rulesdata import Ability, UnitDef
from spacecombat.rulesets.setup import (
    check_policy_names,
    field_key,
    merged_policy,
    policy_config,
    side_spec,
)
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, Handler
from spacecombat.rulesets.ti4.rules import (
    UNIT_TYPES,
    UPGRADABLE,
    Ti4Data,
    faction_unit_upgrade,
    load,
    upgrade_beyond_upgrades,
)
from spacecombat.rulesets.ti4.setup.model import (
    DEPLOY,
    AdjacentSystem,
    SideDraft,
    SideSetup,
    StarSystem,
)
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.scenario.schema import Anomaly, PolicySpec, Scenario, SideSpec


def check_ti3_only_keys(scenario: Scenario) -> None:
    """Keys of the scenario format that TI4 has no use for are refused, not ignored."""
    if scenario.discard_pile is not None:
        raise ScenarioError("discard_pile", "a TI3 key (Touch of Genius); TI4 does not use it")
    for side in SIDES:
        if side_spec(scenario, side).fleet_supply:
            raise RuleNotImplemented(
                "the fleet pool (TI4 fleet supply is not modelled)", f"{side.value}.fleet_supply"
            )


def check_known(field_name: str, ident: str, known: Mapping[str, object]) -> str:
    if ident not in known:
        raise ScenarioError(
            field_name, f"unknown {shown(ident)}; allowed: {', '.join(sorted(known))}"
        )
    return ident


# --- laws ---


def read_laws(data: Ti4Data, scenario: Scenario) -> tuple[str, ...]:
    """The scenario's laws, each a known one."""
    return tuple(check_known(f"laws[{i}]", law, data.laws) for i, law in enumerate(scenario.laws))


def check_laws_implemented(data: Ti4Data, laws: tuple[str, ...]) -> None:
    for i, law in enumerate(laws):
        record = data.laws[law]
        if record.combat == "rule" and record.handler not in HANDLERS:
            raise RuleNotImplemented(f"the law {record.name}", f"laws[{i}]")


def check_elected(data: Ti4Data, laws: tuple[str, ...], elected: Mapping[str, str]) -> None:
    """A law that elects something names it in ``elected`` (a player: attacker or defender; a
    planet: its name); ``elected`` names only such laws in play. What a law forbids of the
    battle is its handler's (``Handler.scenario_refusal``)."""
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


# --- the system ---

#: anomalies no ship may move into (LRR 11.1 asteroid field, 86.1 supernova)
_CLOSED_ANOMALIES = {
    "asteroid_field": ("an asteroid field", "LRR 11.1"),
    "supernova": ("a supernova", "LRR 86.1"),
}


def check_active_system(system: StarSystem, handlers: tuple[Handler, ...]) -> None:
    """No battle can happen in an anomaly the active player's ships cannot move into: a ship
    cannot move into an asteroid field (LRR 11.1) or a supernova (LRR 86.1), unless its owner
    has a technology that lets it in (its handler's ``permits_anomaly``; docs/rulings.md R32).
    The same permission opens it to a retreat (notes 2 and 3)."""
    closed = _CLOSED_ANOMALIES.get(system.anomaly)
    if closed is None:
        return
    name, rule = closed
    attacker = Side.ATTACKER
    if any(h.permits_anomaly(attacker, system.anomaly) for h in handlers):
        return
    data = load()
    key = _opening_technology(data, system.anomaly)
    tech = data.technologies[key].name
    raise ScenarioError(
        "system.anomaly",
        f"no battle can happen in {name}: ships cannot move into one ({rule}) unless their "
        f"owner has {tech}; add {key} to attacker.technologies to fight there",
    )


def _opening_technology(data: Ti4Data, anomaly: str) -> str:
    """The first technology of the data whose handler lets its owner's ships into
    ``anomaly``."""
    owner = Side.ATTACKER
    for key, record in data.technologies.items():
        handler = HANDLERS.get(record.handler or "")
        if handler is not None and handler(owner).permits_anomaly(owner, anomaly):
            return key
    raise AssertionError(f"no technology opens {anomaly}")


#: anomalies of another ruleset: the ion storm is a TI3 (Shattered Empire) special system, and
#: TI4 has none (docs/rulings.md 27I-5)
_NOT_TI4_ANOMALIES = ("ion_storm",)


def _check_ti4_anomaly(anomaly: str, field: str) -> None:
    """``anomaly`` is one of TI4's (the scenario schema also holds TI3's ion storm)."""
    if anomaly in _NOT_TI4_ANOMALIES:
        allowed = ", ".join(a for a in get_args(Anomaly) if a not in _NOT_TI4_ANOMALIES)
        raise ScenarioError(
            field, f"{shown(anomaly)} is a TI3 special system, not TI4's; allowed: {allowed}"
        )


def read_system(scenario: Scenario) -> StarSystem:
    _check_ti4_anomaly(scenario.system.anomaly, "system.anomaly")
    for i, spec in enumerate(scenario.system.adjacent):
        _check_ti4_anomaly(spec.anomaly, f"system.adjacent[{i}].anomaly")
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
        features=read_conditions(
            load(), scenario.system.features or (), "system.features", "system"
        ),
    )


# --- policies ---


def read_policy(
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
        _check_play_value(ident, (layer.play or {})[ident], where)


#: the effect that gains the opponent's technologies during a battle (their decisions may be
#: named before it gains them)
_GAINS_TECHNOLOGIES = "technological_singularity"


def check_play_names(scenario: Scenario, handlers: Iterable[Handler]) -> None:
    """Each name of a side's ``policy.play`` is one of that side's decisions: an effect in play
    that it holds and that asks it something (``Handler.asks``), or one of the opponent's
    technologies it may gain during the battle (Technological Singularity); a name of the
    shared ``policy.play``, a decision of either side. A name that never asks anything is
    refused, listing the names allowed (docs/rulings.md 14B-7, 27T-1)."""
    data = load()
    in_play = tuple(handlers)
    asked: dict[Side, set[str]] = {side: set() for side in SIDES}
    for h in in_play:
        if h.owner is not None and h.asks is not None:
            asked[h.owner].add(h.asks)
    for side in SIDES:
        if any(h.id == _GAINS_TECHNOLOGIES and h.owner is side for h in in_play):
            asked[side] |= {
                h.asks
                for h in in_play
                if h.owner is side.other and h.asks is not None and h.id in data.technologies
            }
    layers = [(f"{side.value}.policy", side_spec(scenario, side).policy, {side}) for side in SIDES]
    layers.insert(0, ("policy", scenario.policy, set(SIDES)))
    for where, layer, sides in layers:
        if layer is None:
            continue
        allowed = sorted(set().union(*(asked[side] for side in sides)))
        for ident in layer.play or {}:
            if ident not in allowed:
                whose = "either side" if len(sides) > 1 else "this side"
                raise ScenarioError(
                    f"{where}.play.{field_key(ident)}",
                    f"{shown(ident)} is not a decision of {whose} (no effect it holds in this "
                    f"battle asks it anything); allowed: {', '.join(allowed) or 'none'}",
                )


def _check_play_value(ident: str, when: object, where: str) -> None:
    """A ``policy.play`` value that only one effect takes (``Handler.play_values``) is refused
    for any other."""
    for handler in HANDLERS.values():
        meaning = handler.play_values.get(when) if isinstance(when, str) else None
        if meaning is not None and ident != handler.id:
            raise ScenarioError(
                f"{where}.play.{field_key(ident)}",
                f"{shown(when)} is only for {handler.id} ({meaning}); allowed here: 'never' "
                "or {round: N}",
            )


# --- unit cards ---

#: the most units of a type a player may have in a battle, below the side's unit limit (a player
#: has one flagship: its faction's one card); the catalogue gives it to the page's steppers
MOST_OF_A_TYPE = {"flagship": 1}


def side_cards(data: Ti4Data, faction: str | None, upgrades: Iterable[str]) -> dict[str, UnitDef]:
    """The unit cards, by unit type, that a side of ``faction`` (``None``: generic units) with
    the unit upgrades ``upgrades`` plays with: what a battle's set-up reads, and what the
    catalogue shows the page (docs/rulings.md 25U-1)."""
    return _cards(data, faction, upgrades)


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
    tokens: int | None = None,
) -> dict[str, UnitDef]:
    """The unit cards a side uses instead of its faction's usual ones (``cards``: a Codex
    revision such as Iconoclast Omega, or an upgraded faction unit that ``upgrades`` cannot
    name, Memoria II or Prototype War Sun II), by unit type. Each is a card of the side's
    faction that replaces the card the faction would otherwise use for that unit type
    (docs/rulings.md 14S-1, 14R-7); or, for a Nekro (``tokens``: its Valefar Assimilator tokens
    not on a listed technology; ``None``: not a Nekro), another faction's unit upgrade
    technology a token copies: its card replaces the Nekro's of that unit type (docs/rulings.md
    27V-7), one a token."""
    copyable = {
        u.id: u
        for u in data.units.values()
        if tokens is not None
        and faction_unit_upgrade(u)
        and u.faction != faction
        and u.type in cards
    }
    chosen: dict[str, UnitDef] = {}
    for i, ident in enumerate(named):
        name = f"{where}.cards[{i}]"
        if ident in copyable and tokens is not None:
            tokens -= 1
            if tokens < 0:
                raise ScenarioError(
                    name,
                    f"{shown(ident)} is a unit upgrade of {copyable[ident].faction}; a Nekro lists "
                    "one other faction's technology or unit upgrade for each Valefar "
                    "Assimilator it owns (the one its token copies): no token is left for it",
                )
            if copyable[ident].type in chosen:
                raise ScenarioError(name, f"a second card for the {copyable[ident].type}")
            chosen[copyable[ident].type] = copyable[ident]
            continue
        allowed = {
            u.id: u
            for u in data.units.values()
            if (u.source.startswith("codex") or upgrade_beyond_upgrades(u))
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
            listed = ", ".join(sorted({**allowed, **copyable})) or "none for this side"
            raise ScenarioError(name, f"{why}; allowed: {listed}")
        card = allowed[ident]
        if card.type in chosen:
            raise ScenarioError(name, f"a second card for the {card.type}")
        chosen[card.type] = card
    return chosen


# --- one side, as read ---


def read_side(data: Ti4Data, scenario: Scenario, side: Side) -> SideDraft:
    """One side as the scenario states it, checked: its faction, upgrades, technologies, unit
    cards, the cards it holds, its conditions and its units in the battle. What needs the
    effects that act at set-up (the cards they change, the abilities they take out of play) is
    checked once they have acted (``check_side``)."""
    spec = side_spec(scenario, side)
    where = side.value
    faction = spec.faction
    if faction is not None:
        check_known(f"{where}.faction", faction, data.factions)
    _check_upgrades(spec, where)
    techs = _read_technologies(data, spec, faction, where)
    _check_technology_colours(data, spec, techs, where)
    cards = _cards(data, faction, spec.upgrades)
    tokens = _tokens_left(data, spec, faction)
    cards.update(_printings(data, spec.cards or (), faction, cards, where, tokens))
    held = _held(data, spec, where)
    conditions = read_conditions(data, spec.conditions or (), f"{where}.conditions", "player")
    present = _present_units(scenario, side, spec, cards)
    return SideDraft(
        side=side,
        spec=spec,
        faction=faction,
        technologies=techs,
        cards=cards,
        held=held,
        conditions=conditions,
        present=present,
    )


def _check_upgrades(spec: SideSpec, where: str) -> None:
    for i, unit in enumerate(spec.upgrades):
        if unit not in UPGRADABLE:
            raise ScenarioError(
                f"{where}.upgrades[{i}]",
                f"{shown(unit)} has no upgrade; allowed: {', '.join(UPGRADABLE)}",
            )


#: the Nekro's technologies that copy another faction's technology (data/technologies.toml)
ASSIMILATORS = ("valefar_assimilator_x", "valefar_assimilator_y")
NEKRO = "nekro"


def _tokens_left(data: Ti4Data, spec: SideSpec, faction: str | None) -> int | None:
    """A Nekro's Valefar Assimilator tokens not on a technology the side lists (another
    faction's, R23, docs/rulings.md 27V-4): each may be on a unit upgrade it lists in ``cards``
    (27V-7). Other sides: ``None``."""
    if faction != NEKRO:
        return None
    owned = sum(1 for t in spec.technologies if t in ASSIMILATORS)
    copied = sum(
        1
        for t in spec.technologies
        if t in data.technologies and (f := data.technologies[t].faction) and f != faction
    )
    return max(owned - copied, 0)


def _read_technologies(
    data: Ti4Data, spec: SideSpec, faction: str | None, where: str
) -> tuple[str, ...]:
    """The side's technologies, each a known one (a unit or a unit upgrade named as one is
    pointed to its own list) of no other faction than the side's."""
    techs = []
    # a Nekro lists the faction technology each of its Valefar Assimilators copies (R23,
    # docs/rulings.md 27V-4): one of another faction for each assimilator it owns
    copies = sum(1 for t in spec.technologies if t in ASSIMILATORS) if faction == NEKRO else 0
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
        check_known(name, tech, data.technologies)
        record = data.technologies[tech]
        if record.faction and faction and record.faction != faction:
            copies -= 1
            if copies < 0:
                also = ""
                if faction == NEKRO:
                    also = " (a Nekro lists one other faction's technology for each Valefar "
                    also += "Assimilator it owns: the one its token copies)"
                raise ScenarioError(
                    name,
                    f"{record.name} is a {record.faction} faction technology; this side is "
                    f"{faction}{also}",
                )
        techs.append(tech)
    return tuple(techs)


def _present_units(
    scenario: Scenario, side: Side, spec: SideSpec, cards: Mapping[str, UnitDef]
) -> dict[str, int]:
    """The side's units in the battle by type (its ``units``, its ``planet_units``, and an
    invasion defender's units on the planets), each a unit type the side has a card for."""
    where = side.value
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
        most = MOST_OF_A_TYPE.get(unit)
        if most is not None and present[unit] > most:
            raise ScenarioError(f"{where}.units.{unit}", f"a player has at most {most} {unit}")
    return present


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
            check_known(name, ident, allowed)
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


def read_conditions(data: Ti4Data, named: Iterable[str], where: str, scope: str) -> frozenset[str]:
    """Conditions of a player or of the system, each a known one of that scope."""
    allowed = {k: c for k, c in data.conditions.items() if c.scope == scope}
    for i, ident in enumerate(named):
        check_known(f"{where}[{i}]", ident, allowed)
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


# --- one side, once the effects acting at set-up have adjusted it ---


def check_side(data: Ti4Data, draft: SideDraft) -> None:
    """What of a side depends on the effects that acted at set-up (``Handler.set_up_side``):
    its damaged units against their cards, and every ability the side brings into play has a
    handler (``RuleNotImplemented`` naming it otherwise). The printed unit types are checked
    (``UNIT_TYPES``), not the types a unit becomes during the battle."""
    printed = {unit: card for unit, card in draft.cards.items() if unit in UNIT_TYPES}
    _check_damaged(draft, printed)
    _check_unit_abilities(draft, printed)
    _check_faction(data, draft)


def _check_damaged(draft: SideDraft, cards: Mapping[str, UnitDef]) -> None:
    where, present = draft.side.value, draft.present
    for unit, hurt in draft.spec.damaged.items():
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


def _check_unit_abilities(draft: SideDraft, cards: Mapping[str, UnitDef]) -> None:
    """The abilities of the units in the battle, and the DEPLOY of those in reinforcements."""
    where = draft.side.value
    for unit in draft.present:
        _check_abilities(cards[unit].abilities, f"{where}.units.{unit} ({cards[unit].name})")
    for unit, card in cards.items():
        if unit not in draft.present:  # in reinforcements: only a DEPLOY can bring it in
            deploys = [a for a in card.abilities if a.name == DEPLOY]
            _check_abilities(deploys, f"{where}.faction ({draft.faction}: {card.name}'s DEPLOY)")


def _check_faction(data: Ti4Data, draft: SideDraft) -> None:
    """The faction's abilities and the technologies, unless taken out of play at set-up (the
    faction's own then are no reason to refuse the battle)."""
    where, faction, muted = draft.side.value, draft.faction, draft.faction_muted
    if faction is not None and not muted:
        _check_abilities(data.factions[faction].abilities, f"{where}.faction ({faction})")
    for i, tech in enumerate(draft.technologies):
        record = data.technologies[tech]
        if muted and record.faction:
            continue
        if record.combat == "rule" and record.handler not in HANDLERS:
            raise RuleNotImplemented(f"the technology {record.name}", f"{where}.technologies[{i}]")


def _check_abilities(abilities: Iterable[Ability], where: str) -> None:
    for ability in abilities:
        if ability.combat == "rule" and ability.handler not in HANDLERS:
            label = ability.name or ability.text
            raise RuleNotImplemented(f"the ability '{label}'", where)


# --- an invasion's planets ---


def check_defender_planets(scenario: Scenario, defender: SideSetup) -> None:
    """With ``planets`` listed, the defender's units and their damage are listed under each
    planet, ground forces and structures only."""
    dfn = scenario.defender
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
    for i, p in enumerate(scenario.planets or ()):
        for unit in p.defender:
            if defender.is_ship(unit):
                raise ScenarioError(f"planets[{i}].defender.{unit}", "ships are not on planets")
        for unit, hurt in p.damaged.items():
            if unit not in p.defender or hurt > p.defender[unit]:
                raise ScenarioError(
                    f"planets[{i}].damaged.{field_key(unit)}",
                    f"{hurt} damaged but only {p.defender.get(unit, 0)} present",
                )
            if not defender.card(unit).sustain_damage:
                raise ScenarioError(
                    f"planets[{i}].damaged.{unit}",
                    f"{defender.card(unit).name} has no SUSTAIN DAMAGE, so it cannot be damaged",
                )


def check_allocation(
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
