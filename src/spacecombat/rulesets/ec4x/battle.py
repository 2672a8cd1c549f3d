"""The EC4X battle as a process (7.0–7.6): each stage of space combat handled by the procedure
that the rules name (``space_combat/``: ``pre_combat``, ``rounds``, ``damage``, ``retreat``,
``outcome``), then planetary combat (``planetary/chain.py``, 7.5–7.6)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping

from spacecombat.core.decisions import DecisionRequest, Policy
from spacecombat.core.engine import End, Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ec4x.planetary.chain import Planetary, plans
from spacecombat.rulesets.ec4x.planetary.siege import Stage as SiegeStage
from spacecombat.rulesets.ec4x.setup import Setup
from spacecombat.rulesets.ec4x.space_combat import cer, damage, pre_combat, retreat, rounds
from spacecombat.rulesets.ec4x.space_combat.outcome import outcome, reembark
from spacecombat.rulesets.ec4x.state import CONDITION_NAMES, IN_BATTLE, Stage, State
from spacecombat.scenario.ec4x import RetreatAfterRound

Procedure = Callable[[Setup, State], Node[State]]
#: the siege's stages from the landing on (their round numbers do not matter)
GROUND_STAGES = SiegeStage.LAND

PROCEDURES: dict[Stage, Procedure] = {
    Stage.MORALE: pre_combat.morale,
    Stage.DETECTION: pre_combat.detect,
    Stage.ENGAGEMENT: pre_combat.engage,
    Stage.ROUND_START: rounds.round_start,
    Stage.ATTACK: rounds.attack,
    Stage.DAMAGE: damage.apply_damage,
    Stage.FORCE_REDUCTION: damage.force_reduction,
    Stage.ROUND_END: rounds.round_end,
    Stage.ROE_CHECK: retreat.roe_check,
}


class RoePolicy:
    """The stock policy of one house (7.1.1, 7.3.4 step 4): stay while the Task Force's ROE
    allows it, retreat otherwise; or the house's ``retreat`` setting: ``never``, or
    ``{after_round: N}`` (stay through round N − 1, retreat at the end of round N)."""

    def __init__(self, setting: object) -> None:
        self.setting = setting

    def choose(self, request: DecisionRequest) -> str:
        if request.decision != "retreat":
            return request.options[0].text
        if self.setting == "never":
            return retreat.STAY
        if isinstance(self.setting, RetreatAfterRound):
            current = request.facts.get("round")
            done = isinstance(current, int) and current >= self.setting.after_round
            return retreat.RETREAT if done else retreat.STAY
        return retreat.STAY if request.facts.get("roe_allows") else retreat.RETREAT


class Ec4xBattle:
    """One EC4X space battle, for the resolver, the odds engine and the report."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        after = [
            spec.retreat.after_round
            for spec in setup.scenario.houses.values()
            if isinstance(spec.retreat, RetreatAfterRound)
        ]
        limit = setup.options.max_rounds
        # round numbers matter in round 1 (ambush, surprise), to a policy's after_round and to
        # max_rounds; beyond them every round plays alike
        self.round_cap = limit if limit is not None else max([2, *(n + 1 for n in after)])
        #: the node of the state where ``advance`` last stopped joining steps
        self._held: tuple[State, Node[State]] | None = None
        found = plans(setup)
        #: the planetary steps after space combat (7.5, 7.6), None: the scenario has none
        self.planetary = Planetary(setup, found) if found else None

    def quiet(self) -> Ec4xBattle:
        """The same battle building no events, for Monte Carlo's ``Sampler``: the procedures
        take the same steps and draws from the same states and skip only what the log alone
        reads (``Setup.quiet``), so a battle ends as ``play`` ends it with the same dice. The
        setup's memos are shared."""
        return Ec4xBattle(dataclasses.replace(self.setup, quiet=True))

    def start(self) -> Step[State]:
        setup = self.setup
        options = setup.options
        state = State(
            Stage.MORALE,
            cond=tuple(u.start for u in setup.units),
            damage=(0,) * len(setup.units) if options.damage_memory != "none" else (),
        )
        units = [
            {
                "unit": u.uid,
                "house": setup.houses[u.house],
                "kind": u.kind,
                "ships": list(u.ships),
                "state": CONDITION_NAMES[u.start],
                "attack": u.attack,
                "attack_crippled": u.attack_crippled,
                "defense": u.defense,
                "cr": u.cr,
                "bucket": u.bucket,
            }
            for u in setup.units
        ]
        return Step(
            state,
            (
                event(
                    "forces_set",
                    ruleset="ec4x",
                    system=setup.scenario.system.name,
                    controller=setup.houses[setup.controller] if setup.controller >= 0 else None,
                    houses=list(setup.houses),
                    units=units,
                ),
            ),
        )

    def advance(self, state: State) -> Node[State]:
        """The next node. Steps that follow one another are joined into one (their events in
        order), so that the node returned next (a draw, a decision or the end) comes from the
        same state as it would step by step: the chance states, the draws and the log are
        those of the rules taken one step at a time. That node is kept for the next call."""
        held = self._held
        if held is not None and held[0] is state:
            self._held = None
            return held[1]
        node = self._node(state)
        if not isinstance(node, Step):
            return node
        events = node.events
        while True:
            after = node.state
            following = self._node(after)
            if not isinstance(following, Step):
                self._held = (after, following)
                return Step(after, events)
            node = following
            if node.events:
                events = (*events, *node.events)

    def _node(self, state: State) -> Node[State]:
        if state.stage is Stage.OVER:
            if self.planetary is not None and state.siege is None:
                return self.planetary.enter(state)
            return self._end(state)
        if state.stage is Stage.PLANETARY:
            assert self.planetary is not None
            return self.planetary.node(state)
        return PROCEDURES[state.stage](self.setup, state)

    def _end(self, state: State) -> End[State]:
        final, events = reembark(self.setup, state)
        result = outcome(self.setup, final)
        if self.planetary is not None:
            colony = result.get("colony")
            block = dict(colony) if isinstance(colony, dict) else {}
            result["colony"] = {**block, **self.planetary.report(state)}
        ended = event("combat_ended", result=result["result"], rounds=result["rounds"])
        return End(result, (*events, ended))

    # --- what the odds engine and the report need ---

    def canonical(self, state: State) -> State:
        if state.round > self.round_cap:
            state = state.at(state.stage, round=self.round_cap)
        if state.stage is Stage.ATTACK and state.cursor:
            i, natural, target, rerolled = state.cursor
            if natural != rounds.NO_ROLL and target < 0 and not rerolled:
                alike = self._alike_roll(state, i, natural)
                if alike != natural:
                    state = state.at(Stage.ATTACK, cursor=(i, alike, target, rerolled))
        siege = state.siege
        if siege is not None and siege.stage >= GROUND_STAGES and siege.round > 1:
            # ground rounds play alike whatever their number (7.6.1 "Repeat the process")
            state = state.at(state.stage, siege=siege.at(siege.stage, round=1))
        return state

    def _alike_roll(self, state: State, i: int, natural: int) -> int:
        """The lowest face of the CER die that plays like ``natural``, rolled by the ``i``-th
        attacker of the step before its target is drawn (7.3.3): what the roll is read for
        from here on is its hits (the CER of the modified roll times the unit's AS, rounded
        up) and whether it is a natural critical; the modifiers and the AS do not depend on
        the target (``rounds._resolve_roll``), and a re-rolled critical reads the new die.
        The face itself is only logged (``cer_rolled``), which the exact engine does not
        read: ten faces make three or four states."""
        setup = self.setup
        unit = rounds.attackers(setup, state)[i]
        if natural == cer.NATURAL_CRITICAL or not setup.units[unit].uses_cer:
            return natural
        phase = state.steps[state.step][0]
        total = sum(m for _, m in cer.modifiers(setup, state, unit, phase))
        strength = cer.attack_strength(setup, state, unit)
        hits = cer.result(natural + total, strength)[1]
        first = cer.die_first(setup)
        for face in range(first, natural):
            if face != cer.NATURAL_CRITICAL and cer.result(face + total, strength)[1] == hits:
                return face
        return natural

    def end_key(self, state: State) -> Hashable:
        return state.at(state.stage, round=0)

    def describe(self, state: State) -> dict[str, object]:
        described: dict[str, object] = {}
        for h, name in enumerate(self.setup.houses):
            described[name] = {
                "space": [
                    {
                        "unit": u.uid,
                        "ships": list(u.ships),
                        "state": CONDITION_NAMES[state.cond[u.index]],
                        "fighting": state.cond[u.index] in IN_BATTLE,
                    }
                    for u in self.setup.units
                    if u.house == h
                ],
                "planets": [],
            }
        return described

    def survivors(self, outcome: Mapping[str, object], player: str) -> dict[str, int]:
        block = _house(outcome, player)
        found = block.get("survivors", {})
        return {str(k): int(v) for k, v in found.items()} if isinstance(found, dict) else {}

    def losses(self, outcome: Mapping[str, object], player: str) -> float:
        value = _house(outcome, player).get("losses", 0)
        return float(value) if isinstance(value, int | float) else 0.0

    def stock_policies(self) -> dict[str, Policy]:
        return {name: RoePolicy(spec.retreat) for name, spec in self.setup.scenario.houses.items()}

    def product_rounds(self) -> None:
        return None

    #: chance states of EC4X worth one of the exact engine's budget (``budget.CHANCE_STATES``,
    #: sized for TI's, about 1.5 ms each to explore and solve): each of EC4X's is one die or
    #: one target drawn, about 0.12 ms (docs/benchmarks.md, issue 24); 6 times (18,000) keeps a
    #: battle it cannot solve within the 5 s every input is given (docs/limits.md)
    chance_state_scale = 6
    #: settled states the exact engine may reach in an EC4X battle (``budget.GRAPH_SETTLED``
    #: for TI): every example it solves needs fewer, and one it cannot solve (ten fighter
    #: squadrons) is given up in about 3 s rather than 7, so that odds stay within 5 s
    settled_states = 40_000

    def product_refusal(self) -> str:
        """Why the rounds are not in product form (targets are drawn per squadron, 7.3.2),
        and what in this battle multiplies its states: its combat units by kind and house,
        a third house, a siege, and the options that keep more in the state."""
        setup = self.setup
        kinds = {"squadron": "squadron", "fighter": "fighter squadron", "starbase": "starbase"}
        sides = []
        for h, name in enumerate(setup.houses):
            counts: dict[str, int] = {}
            for u in setup.units:
                if u.house == h and u.kind in kinds and u.start in IN_BATTLE:
                    counts[kinds[u.kind]] = counts.get(kinds[u.kind], 0) + 1
            if counts:
                listed = ", ".join(_counted(n, kind) for kind, n in counts.items())
                sides.append(f"{name} {listed}")
        why = (
            "an EC4X battle is explored state by state, every CER die and target choice a "
            "branch (7.3.2, 7.3.3), and this one has " + "; ".join(sides)
        )
        options = setup.options
        more = []
        if len(sides) > 2:
            more.append(f"{len(sides)} houses fighting")
        if self.planetary is not None:
            more.append("planetary combat after space combat (7.5, 7.6)")
        if options.damage_memory != "none":
            more.append(f"hits kept below DS (option damage_memory: {options.damage_memory})")
        if options.cer_timing == "round_start":
            more.append("each unit's CER die rolled at the round's start (option cer_timing)")
        if options.crippled_as_timing == "end_of_round":
            more.append("conditions kept from the round's start (option crippled_as_timing)")
        return why + (f", with {', '.join(more)}" if more else "")

    def notices(self) -> tuple[str, ...]:
        said = []
        for h, name in enumerate(self.setup.houses):
            spec = self.setup.scenario.houses[name]
            if (
                spec.retreat != "never"
                and spec.retreat_lane == "none"
                and any(f.house == h for f in self.setup.fleets)
            ):
                said.append(
                    f"{name} can never retreat: it has no lane to a friendly system "
                    "(retreat_lane: none)."
                )
        return tuple(said)


def _counted(count: int, kind: str) -> str:
    return f"{count} {kind}" + ("" if count == 1 else "s")


def _house(outcome: Mapping[str, object], player: str) -> Mapping[str, object]:
    houses = outcome.get("houses")
    block = houses.get(player) if isinstance(houses, Mapping) else None
    return block if isinstance(block, Mapping) else {}
