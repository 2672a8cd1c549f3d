"""The combat of one tactical action as one battle (``battle: tactical``, TI4 and TI3).

A tactical action fights in the rules' order: in TI4 space cannon offense, then the space
combat with its retreats (ti4-space-combat.md), then, if the attacker holds the space area,
the invasion of the planets (ti4-ground-combat.md: bombardment, committing the ground forces
still in space, space cannon defense, ground combat on each planet, establishing control); in
TI3 the space battle, then its invasion combat (ti3-combat.md). Each stage is played by the
ruleset's own battle of that kind, unchanged; this module chains them into one process:

- **the space stage**: the ruleset's space battle, built from the tactical scenario (its
  planets' units on the planets of the system, as a space battle takes them);
- **the hand-over**: when the space battle ends with the attacker holding the space area and
  planets to invade, the invasion is built from what is left: the attacker's units in the
  space area (ships with their damage, the fighters and ground forces they still carry), the
  ground forces committed clipped to those left, in the attacker's planet order, and what the
  space combat used up (cards played, technologies exhausted or gained, trade goods spent:
  ``Stages.invasion``);
- **the invasion stage**: the ruleset's invasion battle from there.

Where no defending ships are present the space combat is not fought (TI4 still resolves space
cannon offense); where the attacker does not hold the space area, or no planet is listed, the
action ends with the space stage. The outcome (``TacticalBattle.outcome``) keeps each stage's
own outcome, and says who holds the space area and who controls each planet.

The odds engine solves a tactical action stage by stage (``spacecombat.analysis.tactical``):
the space stage's ends, grouped by what they hand over, weight the invasions' odds. The whole
process is what the resolver plays and what the state-by-state engine checks it against.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import replace
from typing import Any, NamedTuple, Protocol

from spacecombat.core.decisions import Option, Policy
from spacecombat.core.engine import Chance, Decision, Draw, End, Node, Step
from spacecombat.core.errors import NothingToInvade, RuleNotImplemented, ScenarioError
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Forces
from spacecombat.core.outcome import holder
from spacecombat.core.pool import Tally
from spacecombat.core.rounds import PlayerRounds
from spacecombat.rulesets import Battle
from spacecombat.scenario.schema import PolicySpec, Scenario

#: the stages of a tactical action, in the order they are fought
SPACE, INVASION = "space", "invasion"

PLAYERS = ("attacker", "defender")


#: one stage's battle: a ruleset's battle of that kind
StageBattle = Battle


class Stages(Protocol):
    """A ruleset's two stages of a tactical action, and the hand-over between them."""

    #: the space battle (``None``: not fought, the defender has no ships: TI3)
    space: StageBattle | None
    #: the planets of the system that may be invaded, in the scenario's order
    planets: tuple[str, ...]

    def hand_over(self, end: Any | None) -> Hashable:
        """What the invasion depends on of the space stage's final state ``end`` (``None``:
        no space stage): equal keys, the same invasion from the same first state."""
        ...

    def invasion(self, key: Hashable) -> tuple[StageBattle, Any]:
        """The invasion that a hand-over key starts, and its first state."""
        ...

    def invades(self, key: Hashable) -> bool:
        """Whether the hand-over ``key`` leaves the attacker anything to invade with (ground
        forces to land, or units to bombard, as the ruleset asks of an invasion)."""
        ...

    def untouched(self) -> list[dict[str, object]]:
        """The planets' records when no invasion is fought (``core/outcome.planet_record``):
        each stays the defender's, its units as they were."""
        ...


class TacticalState(NamedTuple):
    """Where a tactical action stands: the stage, its battle's state, and (in the invasion)
    the space stage's final state (``None`` if no space stage was fought), which the action's
    outcome reports."""

    stage: str
    inner: Any
    space_end: Any = None


class TacticalBattle:
    """A tactical action as one process (``Battle``): the space stage, then the invasion."""

    kind = "tactical"

    def __init__(self, stages: Stages) -> None:
        self.stages = stages
        self._space_outcomes: dict[Hashable, Mapping[str, object]] = {}

    # --- the process ---

    def start(self) -> Step[TacticalState]:
        space = self.stages.space
        if space is None:
            return self._invade(None, ())
        first = space.start()
        return Step(TacticalState(SPACE, first.state), first.events)

    def advance(self, state: TacticalState) -> Node[TacticalState]:
        if state.stage == SPACE:
            space = self.stages.space
            assert space is not None
            node = space.advance(state.inner)
            if isinstance(node, End):
                return self._space_ended(state.inner, node)
            return _wrapped(node, lambda s: TacticalState(SPACE, s))
        battle, _ = self._invasion_of(state.space_end)
        node = battle.advance(state.inner)
        if isinstance(node, End):
            space_outcome = self.space_outcome(state.space_end)
            lost = {player: battle.losses(node.outcome, player) for player in PLAYERS}
            outcome = self.outcome(space_outcome, node.outcome, lost)
            return End(outcome, (*_without_end(node.events), event("battle_ended", **outcome)))
        end = state.space_end
        return _wrapped(node, lambda s: TacticalState(INVASION, s, end))

    def _space_ended(self, end: Any, node: End[Any]) -> Node[TacticalState]:
        """The space stage is over at ``end``: the invasion follows if the attacker holds the
        space area and there are planets; else the action ends."""
        said = (*_without_end(node.events), event("stage_ended", stage=SPACE, **node.outcome))
        stages = self.stages
        assert stages.space is not None
        holds = holder(stages.space, node.outcome) == "attacker"
        if not holds or not stages.planets or not stages.invades(stages.hand_over(end)):
            outcome = self.outcome(node.outcome, None)
            return End(outcome, (*_without_end(node.events), event("battle_ended", **outcome)))
        return self._invade(end, said)

    def _invade(self, end: Any | None, said: tuple[Event, ...]) -> Step[TacticalState]:
        battle, first = self._invasion_of(end)
        opened = battle.start()
        return Step(TacticalState(INVASION, first, end), (*said, *opened.events))

    def _invasion_of(self, end: Any | None) -> tuple[StageBattle, Any]:
        return self.stages.invasion(self.stages.hand_over(end))

    def space_outcome(self, end: Any | None) -> Mapping[str, object] | None:
        """The space stage's outcome at its final state ``end`` (``None``: not fought)."""
        if end is None:
            return None
        space = self.stages.space
        assert space is not None
        # kept by the final state itself, its round included: the outcome says how many
        # rounds the space combat took (``end_key`` forgets them)
        known = self._space_outcomes.get(end)
        if known is None:
            node = space.advance(end)
            assert isinstance(node, End), "the space stage's final state ends it"
            known = self._space_outcomes[end] = node.outcome
        return known

    # --- the outcome ---

    def outcome(
        self,
        space: Mapping[str, object] | None,
        invasion: Mapping[str, object] | None,
        invasion_losses: Mapping[str, float] | None = None,
    ) -> dict[str, object]:
        """The action's outcome: its result (the invasion's, if one was fought, else the space
        combat's: docs/protocol.md), who holds the space area, each planet's record, the
        rounds of each stage, the resources each player lost in the invasion (from what it
        started with), and each stage's own outcome."""
        holds = self._holds(space)
        planets = list(invasion["planets"]) if invasion is not None else self.stages.untouched()  # type: ignore[call-overload]
        result = str((invasion or space or {}).get("result"))
        space_rounds = int(str(space.get("rounds", 0))) if space is not None else 0
        # every planet's rounds of ground combat (an invasion's own ``rounds`` is the longest)
        ground_rounds = sum(int(str(p.get("rounds", 0))) for p in planets) if invasion else 0
        return {
            "battle": "tactical",
            "result": result,
            "holds": holds,
            "taken": [p["planet"] for p in planets if p.get("controller") == "attacker"],
            "invaded": invasion is not None,
            "taken_all": bool(planets) and all(p.get("controller") == "attacker" for p in planets),
            "rounds": space_rounds + ground_rounds,
            "space_rounds": space_rounds,
            "ground_rounds": ground_rounds,
            "planets": planets,
            "invasion_losses": dict(invasion_losses or dict.fromkeys(PLAYERS, 0.0)),
            "space": dict(space) if space is not None else None,
            "invasion": dict(invasion) if invasion is not None else None,
        }

    def _holds(self, space: Mapping[str, object] | None) -> str:
        if space is None:
            return "attacker"  # no defending ships, and the space stage was not fought
        assert self.stages.space is not None
        return holder(self.stages.space, space)

    # --- what the odds engine and the report need ---

    def canonical(self, state: TacticalState) -> TacticalState:
        if state.stage == SPACE:
            space = self.stages.space
            assert space is not None
            return TacticalState(SPACE, space.canonical(state.inner))
        battle, _ = self._invasion_of(state.space_end)
        end = state.space_end
        space = self.stages.space
        return TacticalState(
            INVASION,
            battle.canonical(state.inner),
            space.end_key(end) if space is not None and end is not None else None,
        )

    def end_key(self, state: TacticalState) -> Hashable:
        if state.stage == SPACE:
            space = self.stages.space
            assert space is not None
            return (SPACE, space.end_key(state.inner))
        battle, _ = self._invasion_of(state.space_end)
        space = self.stages.space
        end = state.space_end
        return (
            INVASION,
            battle.end_key(state.inner),
            space.end_key(end) if space is not None and end is not None else None,
        )

    def describe(self, state: TacticalState) -> dict[str, object]:
        if state.stage == SPACE:
            space = self.stages.space
            assert space is not None
            return {"stage": SPACE, **space.describe(state.inner)}
        battle, _ = self._invasion_of(state.space_end)
        return {"stage": INVASION, **battle.describe(state.inner)}

    def survivors(self, outcome: Mapping[str, object], player: str) -> dict[str, int]:
        """The player's units left: its ships in the space area (or that retreated) and its
        ground forces on the planets."""
        counts: dict[str, int] = {}
        for part in (self.space_survivors(outcome, player), self.planet_survivors(outcome, player)):
            for unit, count in part.items():
                counts[unit] = counts.get(unit, 0) + count
        return counts

    def space_survivors(self, outcome: Mapping[str, object], player: str) -> dict[str, int]:
        """The player's ships left in the space area, or that retreated (the space stage's)."""
        space = outcome.get("space")
        if not isinstance(space, Mapping) or self.stages.space is None:
            return {}
        return self.stages.space.survivors(space, player)

    def planet_survivors(
        self, outcome: Mapping[str, object], player: str, planet: str | None = None
    ) -> dict[str, int]:
        """The player's ground forces on the planets (or on ``planet``), as the invasion
        counts them."""
        records = outcome.get("planets")
        lists = [
            record.get(player)
            for record in (records if isinstance(records, list) else ())
            if planet is None or record.get("planet") == planet
        ]
        if not lists:
            return {}
        battle, _ = self._invasion_of(None)
        return battle.survivors({player: {"planets": lists}}, player)

    def losses(self, outcome: Mapping[str, object], player: str) -> float:
        """Resources lost: in the space stage, and in the invasion from what it started with."""
        lost = 0.0
        space = outcome.get("space")
        if isinstance(space, Mapping) and self.stages.space is not None:
            lost += self.stages.space.losses(space, player)
        invaded = outcome.get("invasion_losses")
        if isinstance(invaded, Mapping):
            lost += float(invaded.get(player, 0.0))
        return lost

    def stock_policies(self) -> dict[str, Policy]:
        """The scenario's stock policies (one policy answers both stages' decisions)."""
        space = self.stages.space
        if space is not None:
            return space.stock_policies()
        battle, _ = self._invasion_of(None)
        return battle.stock_policies()

    def product_rounds(self) -> PlayerRounds[Any] | None:
        """Not as one process: the odds engine solves each stage in product form
        (``spacecombat.analysis.tactical``)."""
        return None

    def product_refusal(self) -> str | None:
        return "a tactical action is solved stage by stage"

    def notices(self) -> tuple[str, ...]:
        space = self.stages.space
        return space.notices() if space is not None else ()


def _without_end(events: tuple[Event, ...]) -> tuple[Event, ...]:
    """A stage's events without its ``battle_ended`` (the action's end is said once)."""
    return tuple(e for e in events if e.get("event") != "battle_ended")


def _wrapped(node: Node[Any], wrap: Callable[[Any], TacticalState]) -> Node[TacticalState]:
    """A stage's node, its continuations leading to the action's states."""
    if isinstance(node, Step):
        return Step(wrap(node.state), node.events)
    if isinstance(node, Chance):
        then, marked, tally = node.then, node.then_marked, node.then_tally

        def on_hits(hits: int) -> Step[TacticalState]:
            return _step(then(hits), wrap)

        def on_marked(hits: int, marks: int) -> Step[TacticalState]:
            assert marked is not None
            return _step(marked(hits, marks), wrap)

        def on_tally(counted: Tally) -> Step[TacticalState]:
            assert tally is not None
            return _step(tally(counted), wrap)

        return replace(
            node,
            then=on_hits,
            then_marked=on_marked if marked is not None else None,
            then_tally=on_tally if tally is not None else None,
        )
    if isinstance(node, Draw):
        drawn = node.then
        return replace(node, then=lambda value: _step(drawn(value), wrap))
    if isinstance(node, Decision):
        chosen = node.then

        def on_option(option: Option) -> Step[TacticalState]:
            return _step(chosen(option), wrap)

        return Decision(node.request, on_option)
    raise AssertionError(f"a stage's node is wrapped before it ends (got {type(node).__name__})")


def _step(step: Step[Any], wrap: Callable[[Any], TacticalState]) -> Step[TacticalState]:
    return Step(wrap(step.state), step.events)


# --- the stages of a TI scenario (TI4 and TI3 share the scenario model) ---


class Carry(Protocol):
    """What a ruleset says of the hand-over beyond the units (``ScenarioStages``)."""

    def carried(self, end: Any) -> Hashable:
        """What the space stage's final state passes to the invasion besides the attacker's
        units (TI4: cards and technologies used, trade goods spent, technologies gained)."""
        ...

    def first(self, initial: Any, carried: Hashable) -> Any:
        """The invasion's first state, what the space stage passed on set in it."""
        ...


class ScenarioStages:
    """The two stages of a TI4 or TI3 tactical scenario, each the ruleset's own battle built
    from a scenario of that kind (``space_part``, ``invasion_part``).

    ``build``: a checked scenario to its battle. ``structures``: the unit types that stand on
    a planet (the space battle takes the planets' structures in ``units``, their ground forces
    in ``planet_units``). ``space_fought``: whether a space stage is fought when the defender
    has no ships (TI4: space cannon offense still fires; TI3: no space battle).
    ``planet_order``: the attacker's order of the planets, which the ground forces left are
    committed in."""

    def __init__(
        self,
        scenario: Scenario,
        build: Callable[[Scenario], StageBattle],
        *,
        structures: frozenset[str],
        space_fought: bool,
        carry: Carry,
        planet_order: tuple[str, ...] = (),
    ) -> None:
        check_tactical(scenario, structures)
        self.scenario = scenario
        self._structures = structures
        self._build = build
        self._carry = carry
        self.planets = tuple(p.name for p in scenario.planets or ())
        ships = {u: n for u, n in scenario.defender.units.items() if n and u not in structures}
        self.space: StageBattle | None = None
        if ships or space_fought:
            self.space = build(space_part(scenario, structures))
        order = [self.planets.index(name) for name in planet_order]
        self._order = (*order, *(i for i in range(len(self.planets)) if i not in order))
        self._battles: dict[tuple[tuple[str, int, int], ...], StageBattle] = {}
        self._invasions: dict[Hashable, tuple[StageBattle, Any]] = {}
        self._invading: dict[Hashable, bool] = {}
        if self.planets:
            # the invasion as the scenario gives it (every unit there), checked at once
            self._battle(_space_units(scenario, structures))

    def hand_over(self, end: Any | None) -> Hashable:
        if end is None:
            return (_space_units(self.scenario, self._structures), None)
        units = tuple((unit, int(status), count) for unit, status, count in end.attacker.space)
        return (units, self._carry.carried(end))

    def invasion(self, key: Hashable) -> tuple[StageBattle, Any]:
        known = self._invasions.get(key)
        if known is None:
            assert isinstance(key, tuple)
            units: tuple[tuple[str, int, int], ...] = key[0]
            carried: Hashable = key[1]
            battle = self._battle(units)
            first = battle.start().state
            if carried is not None:
                first = self._carry.first(first, carried)
            known = self._invasions[key] = (battle, first)
        return known

    def invades(self, key: Hashable) -> bool:
        known = self._invading.get(key)
        if known is None:
            try:
                self.invasion(key)
                known = True
            except NothingToInvade:
                known = False
            self._invading[key] = known
        return known

    def _battle(self, units: tuple[tuple[str, int, int], ...]) -> StageBattle:
        known = self._battles.get(units)
        if known is None:
            known = self._battles[units] = self._build(
                invasion_part(self.scenario, units, self._order)
            )
        return known

    def untouched(self) -> list[dict[str, object]]:
        out: list[dict[str, object]] = []
        for planet in self.scenario.planets or ():
            forces = Forces.of(planet.defender, planet.damaged)
            out.append(
                {
                    "planet": planet.name,
                    "result": "not_invaded",
                    "controller": "defender",
                    "rounds": 0,
                    "attacker": [],
                    "defender": forces.to_json(),
                }
            )
        return out


def check_tactical(scenario: Scenario, structures: frozenset[str]) -> None:
    """Where a tactical scenario's units may be listed: with planets listed, the defender's
    units on them are each planet's ``defender`` (not ``defender.planet_units``, and no
    structure in ``defender.units``), and a retreat does not take ground forces off them."""
    if not scenario.planets:
        return
    brought = {u for u, n in scenario.attacker.units.items() if n and u not in structures}
    for i, planet in enumerate(scenario.planets):
        for key in ("commit", "bombarded_by"):
            for unit in getattr(planet, key) or {}:
                if unit not in brought:
                    # more than survive may be named, but not a unit the attacker never brought
                    raise ScenarioError(
                        f"planets[{i}].{key}.{unit}",
                        "the attacker brings no such unit into the space area; allowed: "
                        f"{', '.join(sorted(brought)) or 'none'}",
                    )
    defender = scenario.defender
    if defender.planet_units:
        raise ScenarioError(
            "defender.planet_units",
            "with planets listed, give the defender's units on each planet in planets[].defender",
        )
    for unit in defender.units:
        if unit in structures:
            raise ScenarioError(
                f"defender.units.{unit}",
                "with planets listed, a structure stands on a planet: give it in "
                "planets[].defender",
            )
    for where, layer in (("policy", scenario.policy), ("defender.policy", defender.policy)):
        if layer is not None and layer.retreat_takes_planet_ground_forces:
            raise RuleNotImplemented(
                "a retreat taking ground forces off the planets of a tactical action "
                "(the invasion after it is not chained)",
                f"{where}.retreat_takes_planet_ground_forces",
            )


def space_part(scenario: Scenario, structures: frozenset[str]) -> Scenario:
    """The space battle of a tactical scenario: its planets' units on the system's planets
    (structures in the defender's ``units``, ground forces in its ``planet_units``), no
    planet order (the space battle has none to order)."""
    defender = scenario.defender
    units, planet_units, damaged = dict(defender.units), dict(defender.planet_units), {}
    damaged = dict(defender.damaged)
    for planet in scenario.planets or ():
        for unit, count in planet.defender.items():
            into = units if unit in structures else planet_units
            into[unit] = into.get(unit, 0) + count
        for unit, count in planet.damaged.items():
            damaged[unit] = damaged.get(unit, 0) + count
    return scenario.model_copy(
        update={
            "battle": "space",
            "planets": None,
            "policy": _without_planet_order(scenario.policy),
            "attacker": scenario.attacker.model_copy(
                update={"policy": _without_planet_order(scenario.attacker.policy)}
            ),
            "defender": defender.model_copy(
                update={
                    "units": units,
                    "planet_units": planet_units,
                    "damaged": damaged,
                    "policy": _without_planet_order(defender.policy),
                }
            ),
        }
    )


def invasion_part(
    scenario: Scenario, units: tuple[tuple[str, int, int], ...], order: tuple[int, ...]
) -> Scenario:
    """The invasion of a tactical scenario once the space stage leaves the attacker
    ``units`` in the space area ((type, status, count)): the ground forces committed and the
    units allotted to bombard each planet clipped to those left, planet by planet in the
    attacker's ``order`` (issue 22: ``commit`` may name more than survive)."""
    counts: dict[str, int] = {}
    damaged: dict[str, int] = {}
    for unit, status, count in units:
        counts[unit] = counts.get(unit, 0) + count
        if status:
            damaged[unit] = damaged.get(unit, 0) + count
    planets = list(scenario.planets or ())
    clipped: dict[int, dict[str, object]] = {i: {} for i in range(len(planets))}
    for key in ("commit", "bombarded_by"):
        left = dict(counts)
        for i in order:
            wanted = getattr(planets[i], key)
            if wanted is None:
                continue
            got = {u: min(n, left.get(u, 0)) for u, n in wanted.items()}
            for unit, n in got.items():
                left[unit] = left.get(unit, 0) - n
            clipped[i][key] = {u: n for u, n in got.items() if n}
    planets = [p.model_copy(update=clipped[i]) for i, p in enumerate(planets)]
    attacker = scenario.attacker
    return scenario.model_copy(
        update={
            "battle": "invasion",
            "planets": tuple(planets),
            "attacker": attacker.model_copy(
                update={"units": counts, "damaged": damaged, "planet_units": {}}
            ),
            "defender": scenario.defender.model_copy(
                update={"units": {}, "damaged": {}, "planet_units": {}}
            ),
        }
    )


def _space_units(
    scenario: Scenario, structures: frozenset[str]
) -> tuple[tuple[str, int, int], ...]:
    """The attacker's units in the space area as the scenario lists them, (type, status,
    count), damaged ones apart: what an invasion without a space stage starts with."""
    attacker = scenario.attacker
    out: list[tuple[str, int, int]] = []
    for unit, count in sorted(attacker.units.items()):
        if unit in structures or not count:
            continue
        hurt = min(attacker.damaged.get(unit, 0), count)
        if count - hurt:
            out.append((unit, 0, count - hurt))
        if hurt:
            out.append((unit, 1, hurt))
    return tuple(out)


def _without_planet_order(layer: PolicySpec | None) -> PolicySpec | None:
    if layer is None or layer.planet_order is None:
        return layer
    return layer.model_copy(update={"planet_order": None})
