"""Building a TI4 battle from a scenario read by setup/validate.py: each side as the effects
acting at set-up leave it (``Handler.set_up_side``), the handlers in play in their documented
order, the forces at the start, and the ``BattleSetup`` that holds them."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TypeVar

from spacecombat.core.forces import Forces
from spacecombat.core.policies import PolicyConfig
from spacecombat.core.sides import SideState
from spacecombat.rulesets.setup import check_invasion_places, side_spec
from spacecombat.rulesets.ti4 import abilities as _abilities  # noqa: F401  (registers handlers)
from spacecombat.rulesets.ti4.abilities.base import (
    HANDLERS,
    Handler,
    Roll,
    never_played,
    overrides,
)
from spacecombat.rulesets.ti4.rules import (
    UNIT_TYPES,
    UPGRADABLE,
    UPGRADE,
    Ti4Data,
    Ti4Options,
    load,
    options,
    upgraded_card,
)
from spacecombat.rulesets.ti4.setup.model import (
    DEPLOY,
    NOTHING_GAINED,
    Gained,
    SideDraft,
    SideSetup,
    StarSystem,
)
from spacecombat.rulesets.ti4.setup.validate import (
    check_active_system,
    check_allocation,
    check_defender_planets,
    check_elected,
    check_laws_implemented,
    check_play_names,
    check_side,
    check_ti3_only_keys,
    read_laws,
    read_policy,
    read_side,
    read_system,
)
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState, Phase
from spacecombat.scenario.checks import forces as forces_of
from spacecombat.scenario.checks import planet_names, space_battle_units
from spacecombat.scenario.schema import Scenario, SideSpec

T = TypeVar("T")
_MISSING = object()


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
    #: the handlers (id, owner) the stock policies never play, left out of play
    #: (``for_stock_policies``)
    left_out: frozenset[tuple[str, Side | None]] = field(default=frozenset(), compare=False)

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
        return self.answering("combat_roll")

    @cached_property
    def acts_in_windows(self) -> bool:
        """Whether some handler in play acts in the timing windows of a combat."""
        return bool(self.answering("in_window"))

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
        technologies during it (``BattleState.gained``: technology ids, ``upgrade:UNIT`` for
        a unit upgrade, a card's id for another faction's unit upgrade a Valefar Assimilator
        copies): the same scenario with those added to the players' ``technologies``,
        ``upgrades`` and ``cards``, built and checked as any other. Gaining one is permanent,
        so a gained technology's handler and unit card act from then on in every procedure;
        built once for each set of gains. The handlers in play before keep their order (a
        timing window's position counts in it), the gained ones come after them."""
        if gained == NOTHING_GAINED:
            return self
        return self.remembered(("having", gained), lambda: _having(self, gained))

    def for_stock_policies(self) -> BattleSetup:
        """This battle as the stock policies fight it, for the odds engine, which decides with
        them alone: the effects that act only once played (``Handler.played_as``) whose
        holder's ``policy.play`` says ``never`` are left out of play, since the stock policy
        passes at every offer of them and passing changes nothing (docs/rulings.md 24B-1).
        Their offers then split no roll (War Funding Ω) and keep no round from product form.
        The same setup when there are none; the technologies gained later leave them out too
        (``having``)."""
        return self.remembered("for_stock_policies", lambda: _for_stock_policies(self))

    def answering(self, hook: str) -> tuple[Handler, ...]:
        """The handlers in play that answer ``hook`` (a name declared in rulesets/ti4/hooks.py:
        ``overrides``), in their order; found once per setup."""
        key = ("answering", hook)
        known = self.memo.get(key)
        if known is None:
            # (asked at many steps: read before a maker is made, 24AI-3)
            known = self.memo[key] = tuple(h for _, h in self.answering_at(hook))
        return known  # type: ignore[return-value]

    def answering_at(self, hook: str) -> tuple[tuple[int, Handler], ...]:
        """``answering``'s handlers, each with its place in ``handlers`` (a cursor counts in
        it), so that a procedure walking them asks only those that can answer (24AI-2)."""
        key = ("answering at", hook)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = tuple(
                (index, h) for index, h in enumerate(self.handlers) if overrides(h, hook)
            )
        return known  # type: ignore[return-value]

    def remembered(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, computed once for ``key`` (a value of the setup and ``key`` alone)."""
        known = self.memo.get(key, _MISSING)
        if known is _MISSING:
            known = self.memo[key] = make()
        return known  # type: ignore[return-value]  # (no ``cast``: a call at every lookup, 24AI-3)


def build(scenario: Scenario) -> BattleSetup:
    """Check a scenario against the TI4 rules data and build its setup."""
    data = load()
    rule_options = options(scenario.options)
    check_ti3_only_keys(scenario)
    laws = read_laws(data, scenario)
    check_elected(data, laws, scenario.elected or {})
    for law_handler in _law_handlers(data, scenario, laws):
        refused = law_handler.scenario_refusal(scenario)
        if refused is not None:
            raise refused
    check_laws_implemented(data, laws)
    system = read_system(scenario)
    planets = planet_names(scenario)
    read = {side: read_side(data, scenario, side) for side in SIDES}
    drafts = adjusted(data, scenario, read, system)
    sides: dict[Side, SideSetup] = {}
    for side in SIDES:
        check_side(data, drafts[side])
        sides[side] = _side_setup(scenario, drafts[side], system, planets)
    held = _handlers(data, scenario, drafts, laws, system)
    # a decision of an effect held is named as one, even where this kind of battle leaves the
    # effect out of play (Magen Defense Grid in a space combat: 24AJ-1)
    check_play_names(scenario, held)
    # a handler that cannot act in this kind of battle is not in play (``Handler.battles``)
    handlers = tuple(h for h in held if scenario.battle in h.battles)
    for handler in handlers:
        handler.set_up_in_play(sides, handlers)
    check_active_system(system, handlers)
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
        refused_rule = handler.refusal(setup)
        if refused_rule is not None:
            raise refused_rule
    return setup


def _for_stock_policies(setup: BattleSetup) -> BattleSetup:
    """``setup.for_stock_policies()``, built."""
    left_out = frozenset(
        (h.id, h.owner)
        for h in setup.handlers
        if h.owner is not None and never_played(h, dict(setup.side(h.owner).policy.play))
    )
    if not left_out:
        return setup
    kept = tuple(h for h in setup.handlers if (h.id, h.owner) not in left_out)
    return replace(setup, handlers=kept, left_out=left_out, memo={})


def _having(setup: BattleSetup, gained: Gained) -> BattleSetup:
    """``setup.having(gained)``, built (docs/architecture.md, technologies gained in a battle)."""
    scenario = setup.scenario
    specs: dict[str, SideSpec] = {}
    for side, got in zip(SIDES, gained, strict=True):
        spec = side_spec(scenario, side)
        upgrades = sorted(t.removeprefix(UPGRADE) for t in got if t.startswith(UPGRADE))
        # another faction's unit upgrade a Valefar Assimilator's token copies: its card's id,
        # a card the side names (``cards``; docs/rulings.md 27V-7)
        copied = sorted(t for t in got if t in load().units)
        technologies = sorted(t for t in got if not t.startswith(UPGRADE) and t not in copied)
        # a war sun or flagship upgrade is a card the side names (``cards``: Memoria II)
        printed = [
            card.id
            for unit in upgrades
            if unit not in UPGRADABLE
            and (card := upgraded_card(load(), spec.faction, unit)) is not None
        ]
        printed += copied
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
    # the effects the stock policies never play stay out of play (``for_stock_policies``)
    handlers = [h for h in handlers if (h.id, h.owner) not in setup.left_out]
    return replace(variant, handlers=tuple(handlers), memo={}, left_out=setup.left_out)


def adjusted(
    data: Ti4Data, scenario: Scenario, drafts: Mapping[Side, SideDraft], system: StarSystem
) -> dict[Side, SideDraft]:
    """The sides as the effects that act at set-up leave them: each handler that the laws, the
    system and the sides could put in play (every unit's abilities, in the battle or not; none
    taken out of play yet), in the documented order, adjusts the attacker's side, then the
    defender's (``Handler.set_up_side``)."""
    out = dict(drafts)
    for handler in _candidates(data, scenario, drafts, system):
        for side in SIDES:
            out[side] = handler.set_up_side(scenario, out[side])
    return out


def _candidates(
    data: Ti4Data, scenario: Scenario, drafts: Mapping[Side, SideDraft], system: StarSystem
) -> Iterator[Handler]:
    """Every handler the scenario could put in play, in the documented order, before the
    effects acting at set-up have acted (``adjusted``)."""
    yield from _system_handlers(system)
    yield from _law_handlers(data, scenario, tuple(scenario.laws))
    for side in SIDES:
        for name in _side_handlers(data, drafts[side], every_unit=True):
            if name in HANDLERS:
                yield HANDLERS[name](side)


def _system_handlers(system: StarSystem) -> list[Handler]:
    """The active system's handler: its anomaly's, if the anomaly has one (its id)."""
    return [HANDLERS[system.anomaly](None)] if system.anomaly in HANDLERS else []


def _law_handlers(data: Ti4Data, scenario: Scenario, laws: tuple[str, ...]) -> list[Handler]:
    """The laws' handlers (an implemented law that acts in a battle), in the laws' order."""
    elected = scenario.elected or {}
    found: list[Handler] = []
    for law in laws:
        handler = data.laws[law].handler
        if data.laws[law].combat == "rule" and handler and handler in HANDLERS:
            owner = Side(elected[law]) if data.laws[law].elect == "player" else None
            found.append(HANDLERS[handler](owner))
    return found


def _side_handlers(data: Ti4Data, draft: SideDraft, *, every_unit: bool = False) -> list[str]:
    """The handler ids a side puts in play, in the documented order: faction abilities,
    technologies, unit abilities, held cards (each once). A unit in the battle brings its
    abilities; one in reinforcements only its DEPLOY, which puts it into the battle (the
    Letnev and Yin mechs), unless set-up brought its ability into play (``SideDraft.brought``);
    ``every_unit``: every unit card's abilities (the candidates of ``adjusted``)."""
    names: list[str] = []
    muted = draft.faction_muted
    if draft.faction and not muted:
        names += [
            a.handler
            for a in data.factions[draft.faction].abilities
            if a.combat == "rule" and a.handler
        ]
    names += [
        h
        for t in draft.technologies
        if data.technologies[t].combat == "rule"
        and (h := data.technologies[t].handler)
        and not (muted and data.technologies[t].faction)
    ]
    for unit, card in draft.cards.items():
        names += [
            a.handler
            for a in card.abilities
            if a.combat == "rule"
            and a.handler
            and (
                every_unit
                or unit in draft.present
                or a.name == DEPLOY
                or a.handler in draft.brought
            )
        ]
    names += [
        h
        for ident in draft.held
        if data.cards[ident].combat == "rule" and (h := data.cards[ident].handler)
    ]
    return list(dict.fromkeys(names))


def _handlers(
    data: Ti4Data,
    scenario: Scenario,
    drafts: Mapping[Side, SideDraft],
    laws: tuple[str, ...],
    system: StarSystem,
) -> tuple[Handler, ...]:
    """The handlers held, in the documented order (abilities/base.py): the system's, the
    laws', then the attacker's and the defender's; those of them in play are those that can act
    in this kind of battle (``Handler.battles``: ``build``)."""
    found = _system_handlers(system)
    found += _law_handlers(data, scenario, laws)
    for side in SIDES:
        found += [HANDLERS[name](side) for name in _side_handlers(data, drafts[side])]
    return tuple(found)


def _side_setup(
    scenario: Scenario, draft: SideDraft, system: StarSystem, planets: tuple[str, ...]
) -> SideSetup:
    """A side's fixed facts, its policy read (and checked) with them."""
    where = draft.side.value
    policy = read_policy(scenario, draft.spec, f"{where}.policy", system, planets)
    # unit types a unit becomes during the battle, each ranked as the type it was
    changed = {unit: card.type for unit, card in draft.cards.items() if unit not in UNIT_TYPES}
    return SideSetup(
        side=draft.side,
        faction=draft.faction,
        cards=draft.cards,
        technologies=draft.technologies,
        policy=_ranked_alike(policy, changed),
        reinforcement_tokens=draft.spec.reinforcement_tokens,
        held=draft.held,
        conditions=draft.conditions,
        floating=draft.floating,
    )


def _ranked_alike(policy: PolicyConfig, changed: Mapping[str, str]) -> PolicyConfig:
    """The policy with each unit type that a unit becomes during the battle (``cavalry_UNIT``)
    ranked in the casualty order right after the type it was, and kept as that type."""
    if not changed:
        return policy
    order: list[str] = []
    for unit in policy.casualty_order:
        order.append(unit)
        order += [new for new, old in changed.items() if old == unit and new not in order]
    return replace(policy, casualty_order=tuple(order), alike=tuple(changed.items()))


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
    attackers = [h for h in handlers if h.owner is Side.ATTACKER]
    bombarders = {
        u: n
        for u, n in att.units.items()
        if a_cards.card(u).bombardment is not None
        or any(h.gives_bombardment(a_cards, u) for h in attackers)
    }
    if scenario.planets is None:
        defender_planets: tuple[Forces, ...] = (forces_of(dfn.units, dfn.damaged),)
        commits: tuple[Mapping[str, int], ...] = (ground_in_space,)
        bombard: tuple[Mapping[str, int], ...] = (bombarders,)
    else:
        check_defender_planets(scenario, d_cards)
        defender_planets = tuple(forces_of(p.defender, p.damaged) for p in scenario.planets)
        if len(scenario.planets) == 1:
            only = scenario.planets[0]
            commits = (only.commit if only.commit is not None else ground_in_space,)
            bombard = (only.bombarded_by if only.bombarded_by is not None else bombarders,)
        else:
            commits = tuple(p.commit or {} for p in scenario.planets)
            bombard = tuple(p.bombarded_by or {} for p in scenario.planets)
        committable = dict(ground_in_space)
        for unit, count in att.units.items():
            # a unit a handler of the attacker's lets it commit (docs/rulings.md 14M-1)
            mays = (h.may_commit(a_cards, unit) for h in attackers)
            if unit not in committable and count and any(mays):
                committable[unit] = count
        check_allocation("commit", commits, committable)
        check_allocation("bombarded_by", bombard, bombarders)
    planets_forces = tuple(Forces() for _ in planets)
    return (
        SideState(attacker_space, planets_forces),
        SideState(Forces(), defender_planets),
        commits,
        bombard,
    )
