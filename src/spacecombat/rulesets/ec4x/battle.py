"""The EC4X battle as a process (7.0–7.6): each stage of space combat handled by the procedure
that the rules name (``space_combat/``: ``pre_combat``, ``rounds``, ``damage``, ``retreat``,
``outcome``), then planetary combat (``planetary/chain.py``, 7.5–7.6)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction

from spacecombat.analysis.graph import TooManyStates, Weight, chances, following
from spacecombat.core.decisions import DecisionRequest, Policy
from spacecombat.core.engine import Chance, Draw, End, Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ec4x.folding import (
    Damaged,
    Landed,
    Own,
    Profiles,
    SelectionTables,
    damage_ends,
)
from spacecombat.rulesets.ec4x.planetary.chain import Planetary, plans
from spacecombat.rulesets.ec4x.planetary.siege import Stage as SiegeStage
from spacecombat.rulesets.ec4x.planetary.solved import SiegeSolver
from spacecombat.rulesets.ec4x.setup import MEMO_LIMIT, Setup, Unit
from spacecombat.rulesets.ec4x.space_combat import cer, damage, pre_combat, retreat, rounds
from spacecombat.rulesets.ec4x.space_combat.outcome import outcome, reembark
from spacecombat.rulesets.ec4x.space_combat.pre_combat import house_morale
from spacecombat.rulesets.ec4x.space_combat.targeting import regards_hostile
from spacecombat.rulesets.ec4x.state import (
    CONDITION_NAMES,
    DESTROYED,
    GONE_CRIPPLED,
    GONE_UNDAMAGED,
    IN_BATTLE,
    Attack,
    Morale,
    Stage,
    State,
)
from spacecombat.scenario.ec4x import RetreatAfterRound

Procedure = Callable[[Setup, State], Node[State]]
#: the siege's stages from the landing on (their round numbers do not matter)
GROUND_STAGES = SiegeStage.LAND
#: the stages inside an attack step (7.3.1: selections, damage, force reduction)
_IN_STEP = (Stage.ATTACK, Stage.DAMAGE, Stage.FORCE_REDUCTION)

#: whether ``canonical`` forgets a +CER boost whose squadron is out for good (24R-4; off
#: only to check that the answers are the same, ``tests/ec4x/test_siege_solved.py``)
FORGET_SPENT_BOOST = True
#: conditions a unit never leaves within a battle: destroyed, retreated (7.3.3, 7.3.5)
_NEVER_BACK = (DESTROYED, GONE_UNDAMAGED, GONE_CRIPPLED)

#: the stages after which an attack step's damage is done (``advance`` stops joining there)
_DAMAGE_DONE = (Stage.DAMAGE, Stage.FORCE_REDUCTION)

#: selections an exact solve may combine in its folded attack steps (``Ec4xBattle.folded``)
#: for each settled state it may reach (180,000 by default): a battle the engine cannot solve
#: may spend much of its time there (a fuzzed three-house battle: 4.7 s of CPU to reach 25,000
#: settled states before the folds' merges were memoised), so the folds' work is bounded too
#: (issue 24). Three squadrons a side with a starbase (reach battle 13) combined 451,090
#: (24R-3), 49,139 since a step's attackers are split by the houses they target (24S-4)
FOLDED_PER_SETTLED = 6
#: outcomes of planetary combat's draws the sieges solved apart may follow (``folded``) for
#: each settled state the exact engine may reach: each is one step of a siege's procedures
#: and a look-up, about 10-15 µs (docs/benchmarks.md, 24R-1)
SIEGE_WORK_PER_SETTLED = 4
#: whether a folded attack step's states are followed through its damage (24S-2; off only to
#: check that the answers are the same, ``tests/ec4x/test_damage_folded.py``)
FOLD_DAMAGE = True
#: whether a step's selections so far are kept only as what their damage will read of them
#: given the most the attackers after may add (24S-5; off only to check the answers)
REACH_MERGES = True
#: whether a step's attackers are split by the houses they may target, each part's damage
#: followed on its own (24S-4; off only to check that the answers are the same)
SPLIT_BY_TARGETS = True
#: whether an attacker's selections are remembered without the other houses' morale (24S-3;
#: off only to check that the answers are the same, ``tests/ec4x/test_damage_folded.py``)
OWN_MORALE_ONLY = True
#: the morale of a house no attack of another house reads (``Ec4xBattle._own_morale``)
_UNREAD = Morale("", 0, -1, 0, False)
#: steps of damage application and force reduction the folds may follow (``_damaged``) for
#: each settled state the exact engine may reach (30,000 by default): each is one procedure
#: of 7.3.3 and a look-up, about 20 µs; reach battle 20 follows 15,051 (docs/benchmarks.md,
#: 24S)
DAMAGE_STEPS_PER_SETTLED = 1
#: steps of the rules (a procedure, with the outcomes of its draw) the attackers' selections
#: may follow (``_selection``: its CER die, target draw and re-roll) for each settled state
#: the exact engine may reach: each about 20-35 µs. Once the folds were cheap (24S-1 to 24S-4)
#: these walks were most of the time a battle too large took to give up, and nothing bounded
#: them but the chance states (docs/benchmarks.md, 24S); reach battle 160 follows 67,739 of
#: the 75,000 (the fuzzed three-house battles slowest to give up stop here, in 2.5-2.8 s)
SELECTION_STEPS_PER_SETTLED = 2.5

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
        #: ``_irrelevant_engaged`` by (joined, refused)
        self._irrelevant: dict[tuple[int, int], int] = {}
        #: each house's first unit: the attacker a selection keeps (``_selections``)
        self._first_of_house = tuple(units[0].index if units else -1 for units in setup.house_units)
        #: runs of interchangeable units (``_alike_runs``); the exact engine clears it when
        #: each unit's own state is asked for (the state after N rounds names units)
        self.alike_runs = _alike_runs(setup)
        #: selections combined by ``folded`` so far, and the most it may combine (its share
        #: of the exact engine's budget, ``size_folds``)
        self.folded_work = 0
        self.most_folded = FOLDED_PER_SETTLED * self.settled_states

        #: 7.4 option starbase_critical_reroll: first_critical, with a starbase here
        self._first_reroll_only = (
            setup.options.starbase_critical_reroll != "every_critical"
            and any(u.kind == "starbase" for u in setup.units)
        )
        #: the battle without its log, for ``_selection`` (``Setup.quiet``)
        self._quiet = dataclasses.replace(setup, quiet=True)
        #: ``_selection`` by the attacker's start state, and how many it has made (each
        #: attacker's selections are numbered in the order they are made, ``folding.Own``)
        self._selection_memo: dict[tuple[State, bool], Own | None] = {}
        self._selections_made = 0
        #: ``_merged`` by its selections
        self._merged_memo: dict[tuple[tuple[Attack, ...], Attack], tuple[Attack, ...]] = {}
        #: the folds' selections by number, and their combinations (``folding``, 24S-1)
        self._tables = SelectionTables()
        self._in_runs = frozenset(
            u for _, first, last in self.alike_runs for u in range(first, last)
        )
        #: ``_live_steps`` by the steps left and what decides who attacks in them
        self._live: dict[Hashable, tuple[tuple[int, int], ...]] = {}
        found = plans(setup)
        #: the planetary steps after space combat (7.5, 7.6), None: the scenario has none
        self.planetary = Planetary(setup, found) if found else None
        #: the policies that decide within a siege solved on its own (``use_policies``; None:
        #: sieges are explored in the battle's graph), its ends by its assault and state, and
        #: the states those solves reached so far, and the most they may (``size_folds``)
        self.siege_policies: Mapping[str, Policy] | None = None
        self._siege_solvers: dict[tuple[object, bool], SiegeSolver] = {}
        self.most_siege_work = SIEGE_WORK_PER_SETTLED * self.settled_states
        #: the steps of damage the folds followed so far (``_damaged``), and the most allowed
        #: (``size_folds``)
        self.damage_steps = 0
        self.most_damage_steps = DAMAGE_STEPS_PER_SETTLED * self.settled_states
        #: the steps of the rules the attackers' selections followed so far (``_selection``),
        #: and the most allowed (``size_folds``)
        self.selection_steps = 0
        self.most_selection_steps = int(SELECTION_STEPS_PER_SETTLED * self.settled_states)
        #: each set of houses' units (``_units_of``)
        self._house_units: dict[frozenset[int], tuple[int, ...]] = {}

    def size_folds(self, settled: int) -> None:
        """The folds' share of the exact engine's budget when it may reach ``settled``
        settled states (a ``--budget`` scales both alike, ``exact.sized_settled``)."""
        self.most_folded = FOLDED_PER_SETTLED * settled
        self.most_siege_work = SIEGE_WORK_PER_SETTLED * settled
        self.most_damage_steps = DAMAGE_STEPS_PER_SETTLED * settled
        self.most_selection_steps = int(SELECTION_STEPS_PER_SETTLED * settled)

    def _refused(self, most: int, where: str) -> TooManyStates:
        """A refusal at one of the folds' budgets (``size_folds``): they grow with the budget
        a player asks for (``--budget``), so the note may offer a larger one."""
        refused = TooManyStates(most, self.product_refusal(), where=where)
        refused.budgeted = True
        return refused

    def use_policies(self, policies: Mapping[str, Policy]) -> None:
        """The policies of the exact engine's exploration, which decide within a siege solved
        on its own (``folded``; the attacker's choices of ground units, 7.5.4, 7.6.1)."""
        if policies is not self.siege_policies:
            self.siege_policies = policies
            self._siege_solvers.clear()

    @property
    def siege_work(self) -> int:
        """The outcomes of draws the sieges solved apart have followed so far."""
        return sum(solver.work for solver in self._siege_solvers.values())

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
        those of the rules taken one step at a time. That node is kept for the next call.

        The joining stops where an attack step's damage is done (7.3.3: the next step begins
        with no selections): the many selections of a step that do the same damage meet
        there, and the exact engine, which remembers the states it passes, goes on from there
        once instead of once for each of them (docs/benchmarks.md, issue 24, 24R-2)."""
        held = self._held
        if held is not None and held[0] is state:
            self._held = None
            return held[1]
        node = self._node(state)
        if not isinstance(node, Step):
            return node
        events = node.events
        before = state.stage
        while True:
            after = node.state
            if before in _DAMAGE_DONE and after.stage is Stage.ATTACK and not after.attacks:
                return Step(after, events)
            before = after.stage
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
        if state.stage >= Stage.OVER:
            return self._after_space_combat(state)
        if state.stage >= Stage.ROUND_START and FORGET_SPENT_BOOST:
            state = self._without_spent_boost(state)
        if state.stage > Stage.ROUND_START:
            state = self._forget_history(state)
            if self.alike_runs and state.stage is Stage.ATTACK:
                if not state.cursor:
                    state = self._alike_sorted(state)
                elif state.attacks and state.cursor[0] < len(rounds.attackers(self.setup, state)):
                    # (once every attacker has selected, ``folded`` has put them in order)
                    state = self._alike_targets(state)
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

    def _without_spent_boost(self, state: State) -> State:
        """7.1.4: a house's +CER for one squadron (``boosted``, ``one_cer``) forgotten once
        that squadron is destroyed or has retreated: only its own attacks read it
        (``cer.modifiers``), and it never fights again this battle (7.3.3, 7.3.5). The
        morale results that differed only by which squadron was boosted are then one, and
        its alike run may be merged (``_alike_sorted``) (24R-4)."""
        morale = state.morale
        cond = state.cond
        if not any(m.boosted >= 0 and cond[m.boosted] in _NEVER_BACK for m in morale):
            return state
        kept = tuple(
            m._replace(boosted=-1, one_cer=0)
            if m.boosted >= 0 and cond[m.boosted] in _NEVER_BACK
            else m
            for m in morale
        )
        return state.at(state.stage, morale=kept)

    def _after_space_combat(self, state: State) -> State:
        """Once space combat is over (7.3.6), what only its rounds read, forgotten: each
        house's morale (7.1.4), who attacked whom (7.3.2.1), initiative (7.1.3), the morale
        auto-critical and starbase re-roll spent (7.1.4, 7.4), the round's steps, selections
        and dice, the houses choosing to retreat (7.3.5) and hits kept below DS. The outcome
        (7.3.6), the re-embarking and planetary combat (7.5, 7.6) read only the conditions,
        who joined, refused, was detected, retreated, stranded or lost spacelift, the result,
        the rounds and the sieges. Without this, each morale result of the battle's start
        made a copy of every siege state after it (docs/benchmarks.md, issue 24)."""
        siege = state.siege
        if siege is not None and siege.stage >= GROUND_STAGES and siege.round > 1:
            # ground rounds play alike whatever their number (7.6.1 "Repeat the process")
            state = state.at(state.stage, siege=siege.at(siege.stage, round=1))
        return state.at(
            state.stage,
            damage=(),
            as_cond=(),
            morale=(),
            engaged=0,
            engaging=0,
            auto_used=0,
            rerolled=0,
            initiative=-1,
            steps=(),
            step=0,
            attacks=(),
            cer_rolls=(),
            retreating=0,
        )

    def _forget_history(self, state: State) -> State:
        """What of the round so far no later step reads, forgotten (7.3.1, 7.3.2.1):

        - the attack steps already taken, and those left whose units are all out of the
          fight (units never come back within a round, so such a step has no attacker and
          passes without a draw); after the last step, every step (the next round lists its
          own, 7.3.4);
        - which house attacked which (``engaged``, ``engaging``) where it cannot change who
          regards whom as hostile (condition 4 of 7.3.2.1 only adds to conditions 1-3, and
          what those read, the fleets that joined and refused orders, is fixed from the
          first round on); the bits of this round already in ``engaged`` from earlier ones;
        - in an attack step, the selections made so far as what damage application reads of
          them (``_selections``).
        """
        changes: dict[str, object] = {}
        if state.steps:
            steps = state.steps
            if state.stage in _IN_STEP and state.step < len(steps):
                kept = (steps[state.step], *self._live_steps(state, steps[state.step + 1 :]))
            else:
                kept = ()
            if kept != steps or state.step:
                changes["steps"] = kept
                changes["step"] = 0
        irrelevant = self._irrelevant_engaged(state.joined, state.refused)
        engaged = state.engaged & ~irrelevant
        engaging = state.engaging & ~irrelevant & ~engaged
        if engaged != state.engaged or engaging != state.engaging:
            changes["engaged"] = engaged
            changes["engaging"] = engaging
        if state.rerolled and self.setup.options.starbase_critical_reroll == "every_critical":
            # 7.4: every critical against a starbase is re-rolled: which were is not read
            changes["rerolled"] = 0
        if state.stage is Stage.ATTACK and len(state.attacks) > 1:
            selections = self._selections(state.attacks)
            if selections != state.attacks:
                changes["attacks"] = selections
        if not changes:
            return state
        return state.at(state.stage, **changes)

    def _alike_sorted(self, state: State) -> State:
        """At the start of an attack step, interchangeable units (``_alike_runs``) listed in a
        fixed order of their conditions: which of two alike units is crippled does not
        change how the battle goes on (targets are drawn by weight, 7.3.2.5; damage is
        applied to each target alike, 7.3.3; the outcome counts ships by class, 7.3.6), as
        long as nothing is read in unit order that could tell them apart: a house's morale
        auto-critical not yet spent (7.1.4 "The first squadron to execute a valid attack")
        and the boosted squadron keep the runs as they are (``_alike_runs`` leaves out
        starbases, carriers and scouts, and battles where a starbase re-rolls only its first
        critical, 7.4)."""
        if state.attacks or state.damage or state.as_cond or state.cer_rolls:
            return state
        setup = self.setup
        cond = state.cond
        changed: list[int] | None = None
        for house, first, last in self.alike_runs:
            run = cond[first:last]
            if all(run[k] <= run[k + 1] for k in range(len(run) - 1)):
                continue
            morale = house_morale(setup, state, house)
            if first <= morale.boosted < last or (
                morale.auto_critical and not state.auto_used >> house & 1
            ):
                continue
            if changed is None:
                changed = list(cond)
            changed[first:last] = sorted(run)
        if changed is None:
            return state
        return state.at(state.stage, cond=tuple(changed))

    def _alike_targets(self, state: State) -> State:
        """Within an attack step, interchangeable units (``_alike_runs``) listed in a fixed
        order of their conditions and of the selections made against them so far (7.3.1:
        the step's damage is applied at once, so which of two alike targets was selected
        does not matter, only what each received). Only units that stand alike in the step
        trade places: those that have attacked, those still to attack, and those that do
        not attack in it (the attackers' order is kept); the attacker at the cursor stays,
        and so do the runs ``_alike_sorted`` keeps."""
        if state.damage or state.as_cond or state.cer_rolls:
            return state
        in_runs = self._in_runs
        if not any(a.target in in_runs for a in state.attacks):
            return state
        setup = self.setup
        cond = state.cond
        members = rounds.attackers(setup, state)
        i = state.cursor[0]
        position = {u: k for k, u in enumerate(members)}
        received: dict[int, list[tuple[int, bool, bool, int]]] = {}
        for a in state.attacks:
            received.setdefault(a.target, []).append((a.hits, a.critical, a.force, a.attacker))
        moved: dict[int, int] = {}
        new_cond: list[int] | None = None
        for house, first, last in self.alike_runs:
            morale = house_morale(setup, state, house)
            if first <= morale.boosted < last or (
                morale.auto_critical and not state.auto_used >> house & 1
            ):
                continue
            groups: dict[int, list[int]] = {}
            for u in range(first, last):
                k = position.get(u, -1)
                standing = 0 if k < 0 else (1 if k < i else (2 if k > i else -1))
                if standing >= 0:
                    groups.setdefault(standing, []).append(u)
            for units in groups.values():
                if len(units) < 2:
                    continue
                signs = [(cond[u], tuple(sorted(received.get(u, ()))), u) for u in units]
                ordered = sorted(signs)
                if [sign[2] for sign in ordered] == units:
                    continue
                if new_cond is None:
                    new_cond = list(cond)
                for place, (condition, _, old) in zip(units, ordered, strict=True):
                    new_cond[place] = condition
                    moved[old] = place
        if new_cond is None:
            return state
        attacks = tuple(a._replace(target=moved.get(a.target, a.target)) for a in state.attacks)
        if len(attacks) > 1:
            attacks = self._selections(attacks)
        cursor = state.cursor
        if len(cursor) == 4 and cursor[2] in moved:
            cursor = (cursor[0], cursor[1], moved[cursor[2]], cursor[3])
        return state.at(state.stage, cond=tuple(new_cond), attacks=attacks, cursor=cursor)

    def _live_steps(
        self, state: State, steps: tuple[tuple[int, int], ...]
    ) -> tuple[tuple[int, int], ...]:
        """The attack steps of ``steps`` in which a unit still fighting attacks (memoised by
        them, the conditions and what ``rounds.phases`` reads)."""
        if not steps:
            return steps
        key = (steps, state.cond, state.detected, state.refused, state.initiative, state.round > 1)
        memo = self._live
        found = memo.get(key)
        if found is None:
            unit_phases = rounds.phases(self.setup, state)
            cond = state.cond
            live = {p for u, p in enumerate(unit_phases) if cond[u] in IN_BATTLE}
            found = tuple(s for s in steps if s in live)
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = found
        return found

    def _irrelevant_engaged(self, joined: int, refused: int) -> int:
        """The bits of ``engaged`` that no hostility judgement reads with these fleets joined
        and refusing orders: house a attacked house t (bit a*H+t) matters only when house t
        would not regard house a as hostile without it (7.3.2.1; ``engagement.hostile``
        returns True at once for an earlier engagement)."""
        key = (joined, refused)
        found = self._irrelevant.get(key)
        if found is None:
            setup = self.setup
            count = len(setup.houses)
            probe = State(Stage.ROUND_START, cond=(), joined=joined, refused=refused)
            found = 0
            for a in range(count):
                for t in range(count):
                    if a != t and regards_hostile(setup, probe, t, a):
                        found |= 1 << (a * count + t)
            self._irrelevant[key] = found
        return found

    def _selections(self, attacks: tuple[Attack, ...]) -> tuple[Attack, ...]:
        """The selections of an attack step as damage application reads them (7.3.1
        "Combined damage from all attackers is applied to the target", 7.3.3): per target,
        the sum of the hits of the attacks without a critical, and each critical's hits on
        its own (restriction 2 and force reduction read them); hits beyond twice the
        target's DS reduce nothing more (excess hits are lost, E25); of the attacker, only
        its house (force reduction's draw is its house's). In a fixed order: the order in
        which attackers selected does not change what the step's damage does, as all of it
        is applied at once."""
        setup = self.setup
        units = setup.units
        plain: dict[int, list[int]] = {}
        found: list[Attack] = []
        for a in attacks:
            house = self._first_of_house[units[a.attacker].house]
            hits = min(a.hits, 2 * units[a.target].defense)
            if a.critical:
                found.append(Attack(house, a.target, hits, True, a.force))
            else:
                held = plain.setdefault(a.target, [house, 0])
                held[0] = min(held[0], house)
                held[1] += a.hits
        for struck, (house, hits) in plain.items():
            found.append(Attack(house, struck, min(hits, 2 * units[struck].defense), False))
        found.sort()
        return tuple(found)

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

    def folded(self, state: State, exact: bool) -> dict[State, Weight] | None:
        """The rest of an attack step's selections from ``state`` (a chance state where the
        next attacker is to roll or draw, nothing of its own drawn yet), folded into one
        distribution: of the states once every attacker of the step has selected, each with
        its chance; None where the step is explored draw by draw.

        7.3.1 "Simultaneous Attack Resolution": all selections of a step are made before any
        damage, and what an attacker rolls and draws does not depend on the others'
        selections (its CER modifiers, AS and candidates read the conditions, which no
        selection changes), so the step's selections are each attacker's own distribution
        of selections (``_selection``, the rules' own draws: CER die, target, re-roll)
        convolved, each sum kept as damage application reads it (``_selections``). Not
        folded, as their order matters: a house's morale auto-critical still to fall on
        the first of its attackers (7.1.4), a starbase re-rolling only its first critical
        (7.4).

        A chance state of planetary combat (7.5, 7.6) folds the rest of its siege: the
        distribution of the siege's last states, solved once for its assault and state
        (``_siege_folded``)."""
        if state.stage is Stage.PLANETARY:
            return self._siege_folded(state, exact)
        members = self._foldable(state)
        if members is None:
            return None
        i = state.cursor[0] if state.cursor else 0
        owns = []
        for k in range(i, len(members)):
            own = self._selection(state, k, exact)
            if own is None:
                return None
            owns.append(own)
        classes = self._target_classes(state)
        tables = self._tables
        tables.fresh()
        trading = tables.classes(tuple(sorted(set(classes.values()))))
        first = self._selections(state.attacks)
        if classes:
            first = self._symmetric(first, classes)
        end = (len(members), rounds.NO_ROLL, -1, 0)
        # what the fold reads: the selections so far, each attacker's own (by its number),
        # the alike targets traded, and what damage application reads (24S-3)
        key = (
            trading,
            tables.number(first),
            tuple(number for number, _ in owns),
            state.cond,
            state.damage,
            exact,
            FOLD_DAMAGE,
        )
        known = tables.folds.get(key)
        if known is None:
            known = self._convolved(state, tables.number(first), owns, classes, end, exact)
            tables.folds[key] = known
        landed, profiles = known
        if landed is not None:
            return self._landed(state, landed)
        found: dict[State, Weight] = {}
        for (attacks, engaging, rerolled), weight in profiles.items():
            after = state.at(
                Stage.ATTACK,
                attacks=tables.tuples[attacks],
                engaging=state.engaging | engaging,
                rerolled=state.rerolled | rerolled,
                cursor=end,
            )
            found[after] = found.get(after, 0) + weight
        return found

    def _convolved(
        self,
        state: State,
        first: int,
        owns: list[Own],
        classes: dict[int, tuple[int, ...]],
        end: tuple[int, ...],
        exact: bool,
    ) -> tuple[Landed | None, Profiles]:
        """The step's selections (7.3.1): each attacker's own (``owns``, from ``_selection``)
        convolved from those so far (``first``, numbered), and where the step ends once its
        damage is done (``_damaged``; None where it is not followed, the selections then
        kept for the explorer).

        The damage a house's units take reads only the selections against them (7.3.3: hits
        summed per target, Destruction Protection among the target's Task Force, force
        reduction within it), so the attackers are split by the houses they may target
        (``_by_targets``): each part's selections are convolved and followed through their
        damage on their own, and the parts' ends combined (24S-4). A step where alpha's and
        beta's squadrons fire at each other combines 15 + 15 x 15 selections where it
        combined 15 x 15 x 15 (reach battle 13's CR 6 step)."""
        one: Weight = Fraction(1) if exact else 1.0
        tables = self._tables
        trading = tables.classes(tuple(sorted(set(classes.values()))))

        def combine(attacks: tuple[Attack, ...], record: Attack) -> tuple[Attack, ...]:
            merged = self._merged(attacks, record)
            return self._symmetric(merged, classes) if classes else merged

        def tidy(attacks: tuple[Attack, ...]) -> tuple[Attack, ...]:
            ordered = self._selections(attacks)
            return self._symmetric(ordered, classes) if classes else ordered

        parts = self._by_targets(owns)
        if FOLD_DAMAGE and SPLIT_BY_TARGETS and len(parts) > 1 and not state.attacks:
            nothing = tables.number(())
            landed_parts = []
            for houses, own_part in parts:
                profiles = self._profiles(state, nothing, own_part, trading, combine, one, tidy)
                landed = self._damaged(state, profiles, end, exact, houses)
                if landed is None:
                    break
                landed_parts.append((houses, landed))
            else:
                return self._joined(state, landed_parts, one), {}
        profiles = self._profiles(state, first, owns, trading, combine, one, tidy)
        if FOLD_DAMAGE:
            units = self.setup.units
            houses = frozenset(
                {h for houses, _ in parts for h in houses}
                | {units[a.target].house for a in state.attacks}
            )
            landed = self._damaged(state, profiles, end, exact, houses)
            if landed is not None:
                return self._joined(state, [(houses, landed)], one), {}
        # the selections kept where their damage is left to the explorer
        return None, profiles

    def _profiles(
        self,
        state: State,
        first: int,
        owns: Sequence[Own],
        trading: int,
        combine: Callable[[tuple[Attack, ...], Attack], tuple[Attack, ...]],
        one: Weight,
        tidy: Callable[[tuple[Attack, ...]], tuple[Attack, ...]],
    ) -> Profiles:
        """Attackers' selections (``owns``) convolved from ``first``, each sum kept as damage
        application reads it (``_merged``: per target, the hits without a critical summed,
        each critical on its own; the alike targets traded to a fixed order, ``_symmetric``,
        as ``combine`` does), then as their damage reads them (``_effective``). After each
        attacker, the hits summed on a target are kept only as what the damage will read of
        them given the most the attackers after it may add (``_within_reach``, 24S-5). Counted
        against the folds' budget (``most_folded``)."""
        tables = self._tables
        # the most hits the attackers after each may still add to each target, by number
        # (``_within_reach``; not where hits below DS are kept)
        reach = self._reach_after(owns) if REACH_MERGES and not state.damage else None
        # the selections so far by their number (``SelectionTables``), with the houses they
        # engaged and the starbases re-rolled against
        profiles: Profiles = {(first, 0, 0): one}
        for k, (_, numbered) in enumerate(owns):
            self.folded_work += len(profiles) * len(numbered)
            if self.folded_work > self.most_folded:
                # the folds' work is not counted in the explorer's states: bounded here, so a
                # battle the engine cannot solve is given up in time (docs/limits.md)
                where = f"after {self.most_folded:,} selections combined within attack steps"
                raise self._refused(self.most_folded, where)
            grown: Profiles = {}
            for (attacks, engaging, rerolled), p in profiles.items():
                for record, number, more_engaging, more_rerolled, q in numbered:
                    if record is None:
                        merged = attacks
                    else:
                        merged = tables.merged(trading, attacks, number, record, combine)
                    key = (merged, engaging | more_engaging, rerolled | more_rerolled)
                    grown[key] = grown.get(key, 0) + p * q
            if reach is not None:
                most, numbered_most = reach[k]

                def keep(
                    attacks: tuple[Attack, ...], most: dict[int, int] = most
                ) -> tuple[Attack, ...]:
                    return tidy(tuple(self._within_reach(attacks, most)))

                merged_by_reach: Profiles = {}
                for (attacks, engaging, rerolled), p in grown.items():
                    kept = tables.within_reach(trading, attacks, numbered_most, keep)
                    key = (kept, engaging, rerolled)
                    merged_by_reach[key] = merged_by_reach.get(key, 0) + p
                grown = merged_by_reach
            profiles = grown
        if not state.damage:
            # the selections as their damage reads them, summed before states are made
            effective: Profiles = {}
            for (attacks, engaging, rerolled), weight in profiles.items():
                key = (tables.effective(attacks, self._effective), engaging, rerolled)
                effective[key] = effective.get(key, 0) + weight
            profiles = effective
        return profiles

    def _reach_after(self, owns: Sequence[Own]) -> list[tuple[dict[int, int], int]]:
        """For each attacker of ``owns``, the most hits the attackers after it may still add
        to each target (the largest of each one's selections against it, summed), numbered
        (``SelectionTables.reach``)."""
        found: list[tuple[dict[int, int], int]] = []
        most: dict[int, int] = {}
        for _, numbered in reversed(owns):
            found.append((dict(most), self._tables.reach(tuple(sorted(most.items())))))
            largest: dict[int, int] = {}
            for record, *_ in numbered:
                if record is not None:
                    largest[record.target] = max(largest.get(record.target, 0), record.hits)
            for target, hits in largest.items():
                most[target] = most.get(target, 0) + hits
        found.reverse()
        return found

    def _within_reach(self, attacks: tuple[Attack, ...], most: dict[int, int]) -> list[Attack]:
        """A step's selections so far with each target's hits without a critical kept only as
        what its damage will read of them, whatever the attackers after may add (at most
        ``most`` hits on each target; 7.3.3 restriction 1, E24, E25): the step's hits on a
        target (these, the later ones, and criticals' hits) are read only as below its DS,
        from DS, or from twice DS (reduced, destroyed when undamaged; Destruction
        Protection and force reduction read the same). A sum that stays below DS with the
        most that may come is as good as none; one from DS that stays below twice DS, as
        DS. Left as they are: targets with a critical among these (its own hits are read on
        their own)."""
        units = self.setup.units
        critical = {a.target for a in attacks if a.critical}
        kept: list[Attack] = []
        for a in attacks:
            if not a.critical and a.target not in critical:
                defense = units[a.target].defense
                more = most.get(a.target, 0)
                if a.hits + more < defense:
                    continue
                if defense <= a.hits and a.hits + more < 2 * defense:
                    a = a._replace(hits=defense)
            kept.append(a)
        return kept

    def _by_targets(self, owns: list[Own]) -> list[tuple[frozenset[int], list[Own]]]:
        """The step's attackers split by the houses they may target: two attackers are in
        one part when their targets' houses meet (through others too), each part with its
        houses, in the attackers' order (one part: nothing to split)."""
        units = self.setup.units
        targeted = [
            frozenset(units[r.target].house for r, *_ in numbered if r is not None)
            for _, numbered in owns
        ]
        parts: list[tuple[set[int], list[Own]]] = []
        for houses, own in zip(targeted, owns, strict=True):
            meeting = [part for part in parts if part[0] & houses]
            if not meeting:
                parts.append((set(houses), [own]))
                continue
            kept = meeting[0]
            kept[0].update(houses)
            kept[1].append(own)
            for other in meeting[1:]:
                kept[0].update(other[0])
                kept[1].extend(other[1])
                parts.remove(other)
        if len(parts) > 1:
            # each part's attackers in the step's order (the sums are the same in any order)
            order = {id(own): k for k, own in enumerate(owns)}
            for part in parts:
                part[1].sort(key=lambda own: order[id(own)])
        return [(frozenset(houses), own_part) for houses, own_part in parts]

    def _joined(
        self, state: State, parts: list[tuple[frozenset[int], Landed]], one: Weight
    ) -> Landed:
        """Where a step's damage leaves all the units, from where it leaves each part's target
        houses' units (``_damaged``; the parts of ``_by_targets``, or one): the units of no
        part as they were, and every combination of the parts' ends, with the product of
        their chances."""
        joined: Landed = {(state.cond, state.damage, 0, 0): one}
        for houses, landed in parts:
            changed = self._units_of(houses)
            grown: Landed = {}
            for (now, now_kept, engaging, rerolled), p in joined.items():
                for (after, after_kept, more_engaging, more_rerolled), q in landed.items():
                    conditions = list(now)
                    for u, condition in zip(changed, after, strict=True):
                        conditions[u] = condition
                    left = now_kept
                    if now_kept:
                        hits = list(now_kept)
                        for u, kept in zip(changed, after_kept, strict=True):
                            hits[u] = kept
                        left = tuple(hits)
                    key = (
                        tuple(conditions),
                        left,
                        engaging | more_engaging,
                        rerolled | more_rerolled,
                    )
                    grown[key] = grown.get(key, 0) + p * q
            joined = grown
        return joined

    def _damaged(
        self,
        state: State,
        profiles: Profiles,
        end: tuple[int, ...],
        exact: bool,
        houses: frozenset[int],
    ) -> Landed | None:
        """Where a folded attack step's damage leaves the units of ``houses`` (those its
        selections may target) once it is done (7.3.1 "Combined damage from all attackers is
        applied to the target", 7.3.3), from its selections all made (``profiles``, by
        number, with the houses they engaged and the starbases re-rolled against): each
        followed through damage application and force reduction to the next step's start,
        where the many selections that do the same damage meet; the conditions and hits kept
        of those units only (``Landed``, in unit order). The damage reads only the
        selections and the conditions and hits kept of their targets' houses' units (Destruction
        Protection and force reduction look within the target's Task Force;
        ``damage.apply_damage``, ``damage.force_reduction``), so its ends are found once for
        each of those (``folding.damage_ends``, remembered for the battle) and given to every
        selection that has them. None (the explorer follows each selection's damage) where
        the damage cannot be followed so (24S-2)."""
        tables = self._tables
        memo = tables.damage
        changed = self._units_of(houses)
        cond = tuple(state.cond[u] for u in changed)
        kept = tuple(state.damage[u] for u in changed) if state.damage else ()
        landed: Landed = {}
        for (attacks, engaging, rerolled), weight in profiles.items():
            key = (houses, cond, kept, attacks, exact)
            if key in memo:
                ends = memo[key]
            else:
                ends = memo[key] = self._damage_ends(state, attacks, end, exact, changed)
            if ends is None:
                return None
            for (after, left), chance in ends.items():
                landed_key = (after, left, engaging, rerolled)
                landed[landed_key] = landed.get(landed_key, 0) + weight * chance
        return landed

    def _damage_ends(
        self,
        state: State,
        attacks: int,
        end: tuple[int, ...],
        exact: bool,
        changed: tuple[int, ...],
    ) -> Damaged | None:
        """``folding.damage_ends`` of the step of ``state`` with the selections numbered
        ``attacks``, as the conditions and hits kept of the units ``changed`` (None where it
        is not followed, or where it changes another unit). Its steps count against the
        folds' budget (``most_damage_steps``)."""
        before = state.at(Stage.ATTACK, attacks=self._tables.tuples[attacks], cursor=end)
        followed = damage_ends(PROCEDURES, self._quiet, before, exact)
        if followed is None:
            return None
        ends, steps = followed
        self.damage_steps += steps
        if self.damage_steps > self.most_damage_steps:
            # bounded beside the folds' selections (docs/limits.md)
            where = f"after {self.most_damage_steps:,} steps of attack steps' damage"
            raise self._refused(self.most_damage_steps, where)
        others = [u for u in range(len(state.cond)) if u not in set(changed)]
        found: Damaged = {}
        for (after, left), chance in ends.items():
            if any(after[u] != state.cond[u] for u in others) or (
                left and any(left[u] != state.damage[u] for u in others)
            ):
                return None
            key = (
                tuple(after[u] for u in changed),
                tuple(left[u] for u in changed) if left else (),
            )
            found[key] = found.get(key, 0) + chance
        return found

    def _units_of(self, houses: frozenset[int]) -> tuple[int, ...]:
        """The units of ``houses``, in unit order (memoised)."""
        found = self._house_units.get(houses)
        if found is None:
            found = tuple(u.index for u in self.setup.units if u.house in houses)
            self._house_units[houses] = found
        return found

    def _landed(self, state: State, landed: Landed) -> dict[State, Weight]:
        """The states where a folded step's damage leaves ``state`` (``_damaged``): its units'
        conditions and hits kept, the houses engaged and starbases re-rolled against, at
        the next step's start with no selections."""
        step = state.step + 1
        done: dict[State, Weight] = {}
        for (after, left, engaging, rerolled), weight in landed.items():
            reached = state.at(
                Stage.ATTACK,
                cond=after,
                damage=left,
                engaging=state.engaging | engaging,
                rerolled=state.rerolled | rerolled,
                step=step,
                attacks=(),
                cursor=(),
            )
            done[reached] = done.get(reached, 0) + weight
        return done

    def _siege_folded(self, state: State, exact: bool) -> dict[State, Weight] | None:
        """The rest of the siege in ``state`` folded into one distribution of the battle's
        states at its end (``DONE``): the siege reads only its assault and its own state
        (7.5, 7.6), so it is solved apart, once for each of its states, by one
        ``SiegeSolver`` for each assault (``planetary/solved.py``), and the battle's other
        facts are carried along. The outcomes of draws the solves follow count against the
        battle's budget (``most_siege_work``, ``SIEGE_WORK_PER_SETTLED`` per settled
        state); None (explored in the battle's graph) where the siege cycles."""
        siege, planetary, policies = state.siege, self.planetary, self.siege_policies
        if siege is None or planetary is None or policies is None or state.siege_plan < 0:
            return None
        assault = planetary.assault(state.siege_plan, state.refused, planetary.colony_now(state))
        if assault is None:
            return None
        solver = self._siege_solvers.get((assault, exact))
        if solver is None:
            solver = self._siege_solvers[assault, exact] = SiegeSolver(
                assault, policies, exact=exact
            )
        solver.most_work = solver.work + self.most_siege_work - self.siege_work
        try:
            ends = solver.ends(siege)
        except TooManyStates:
            where = f"after {self.most_siege_work:,} outcomes of planetary combat's draws"
            raise self._refused(self.most_siege_work, where) from None
        if ends is None:
            return None
        return {state.at(Stage.PLANETARY, siege=last): weight for last, weight in ends.items()}

    def _target_classes(self, state: State) -> dict[int, tuple[int, ...]]:
        """Units that may trade places as targets in a step's selections: those of a run of
        interchangeable units (``_alike_runs``) in the same condition, each with the units of
        its class. The state is the same with any two of them swapped, so a selection
        against one plays like the same selection against the other (7.3.1: the step's
        damage is applied at once). Runs whose order is read are left out (as in
        ``_alike_sorted``: the boosted squadron, a morale auto-critical not yet spent)."""
        if state.damage or state.as_cond or state.cer_rolls:
            return {}
        setup = self.setup
        cond = state.cond
        found: dict[int, tuple[int, ...]] = {}
        for house, first, last in self.alike_runs:
            morale = house_morale(setup, state, house)
            if first <= morale.boosted < last or (
                morale.auto_critical and not state.auto_used >> house & 1
            ):
                continue
            by_condition: dict[int, list[int]] = {}
            for u in range(first, last):
                if cond[u] in IN_BATTLE:
                    by_condition.setdefault(cond[u], []).append(u)
            for units in by_condition.values():
                if len(units) > 1:
                    members = tuple(units)
                    for u in members:
                        found[u] = members
        return found

    def _symmetric(
        self, attacks: tuple[Attack, ...], classes: dict[int, tuple[int, ...]]
    ) -> tuple[Attack, ...]:
        """``attacks`` with the targets of each class of ``_target_classes`` in a fixed order:
        what each received, sorted, given to the class's units in their order."""
        touched = {classes[a.target] for a in attacks if a.target in classes}
        if not touched:
            return attacks
        moved: dict[int, int] = {}
        for members in touched:
            received: dict[int, list[tuple[int, bool, bool, int]]] = {u: [] for u in members}
            for a in attacks:
                if a.target in received:
                    received[a.target].append((a.hits, a.critical, a.force, a.attacker))
            order = sorted(members, key=lambda u: (sorted(received[u]), u), reverse=True)
            for place, old in zip(members, order, strict=True):
                moved[old] = place
        return tuple(sorted(a._replace(target=moved.get(a.target, a.target)) for a in attacks))

    def _merged(self, attacks: tuple[Attack, ...], record: Attack) -> tuple[Attack, ...]:
        """``_selections`` of a step's selections so far with one more (memoised for the
        battle: the folds of many chance states combine the same selections)."""
        memo = self._merged_memo
        key = (attacks, record)
        found = memo.get(key)
        if found is None:
            found = self._selections((*attacks, record))
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = found
        return found

    def _effective(self, attacks: tuple[Attack, ...]) -> tuple[Attack, ...]:
        """A step's selections, all made, as their damage reads them when no hits are kept
        below DS (7.3.3 restriction 1, E25): on a target without a critical, hits below its
        DS do nothing and hits from DS to twice it reduce it one step (at twice its DS, an
        undamaged one may be destroyed, E24)."""
        units = self.setup.units
        critical = {a.target for a in attacks if a.critical}
        kept = []
        for a in attacks:
            if not a.critical and a.target not in critical:
                defense = units[a.target].defense
                if a.hits < defense:
                    continue
                if a.hits < 2 * defense:
                    a = a._replace(hits=defense)
            kept.append(a)
        return tuple(kept)

    def _foldable(self, state: State) -> tuple[int, ...] | None:
        """The step's attackers, if ``folded`` may fold the draws from ``state``: an attack
        step with an attacker to select next, nothing of its own drawn yet (but its die
        rolled at the round's start, option ``cer_timing``), no starbase re-rolling only its
        first critical, no morale auto-critical due to a house still to attack."""
        if state.stage is not Stage.ATTACK or state.step >= len(state.steps):
            return None
        i, natural, target, _ = state.cursor or rounds.FRESH
        setup = self.setup
        members = rounds.attackers(setup, state)
        if i >= len(members) or target >= 0 or self._first_reroll_only:
            return None
        if natural != rounds.NO_ROLL and not (
            # option cer_timing: round_start: the attacker's die, rolled at the round's start
            # (``cer_rolls``; the cursor's face may be one that plays alike, ``canonical``)
            state.cer_rolls and state.cer_rolls[members[i]] != rounds.NO_ROLL
        ):
            return None
        for u in members[i:]:
            house = setup.units[u].house
            if house_morale(setup, state, house).auto_critical and not state.auto_used >> house & 1:
                return None
        return members

    def _selection(self, state: State, k: int, exact: bool) -> Own | None:
        """The ``k``-th attacker's selection in the step of ``state``, by the rules' own draws
        (``rounds.attack`` of the battle without its log, one procedure at a time): each
        selection (None: no valid target; as ``_selections`` keeps it) with the houses it
        engaged and the starbases it re-rolled against, and its chance, numbered for the
        folds (``folding.Own``). None if anything else of the state changed (the step is then
        explored draw by draw). Memoised by the state as the attacker finds it: the steps
        after this one left out, and the other houses' morale (``_own_morale``)."""
        start = state.at(
            Stage.ATTACK,
            steps=(state.steps[state.step],),
            step=0,
            attacks=(),
            cursor=(k, rounds.NO_ROLL, -1, 0),
            engaging=0,
            rerolled=0,
            morale=self._own_morale(state, k),
        )
        memo = self._selection_memo
        key = (start, exact)
        if key in memo:
            return memo[key]
        quiet = self._quiet
        one: Weight = Fraction(1) if exact else 1.0
        frontier: dict[State, Weight] = {start: one}
        found: dict[tuple[Attack | None, int, int], Weight] | None = {}
        steps = 0
        while frontier and found is not None:
            current, p = frontier.popitem()
            steps += 1
            if not (current.stage is Stage.ATTACK and current.cursor and current.cursor[0] == k):
                # the attacker's selection made (or skipped): nothing else may have changed
                if len(current.attacks) > 1 or current != start.at(
                    Stage.ATTACK,
                    attacks=current.attacks,
                    cursor=(k + 1, rounds.NO_ROLL, -1, 0),
                    engaging=current.engaging,
                    rerolled=current.rerolled,
                ):
                    found = None
                    break
                record = self._selections(current.attacks)[0] if current.attacks else None
                outcome = (record, current.engaging, current.rerolled)
                found[outcome] = found.get(outcome, 0) + p
                continue
            node = PROCEDURES[current.stage](quiet, current)
            if isinstance(node, Step):
                frontier[node.state] = frontier.get(node.state, 0) + p
            elif isinstance(node, Chance | Draw):
                for face, q in chances(node, exact).items():
                    after = following(node, face).state
                    _, natural, target, rerolled = after.cursor or rounds.FRESH
                    if natural != rounds.NO_ROLL and target < 0 and not rerolled:
                        # the die kept as what it gives (``canonical``)
                        alike = self._alike_roll(after, k, natural)
                        if alike != natural:
                            after = after.at(Stage.ATTACK, cursor=(k, alike, target, rerolled))
                    frontier[after] = frontier.get(after, 0) + p * q
            else:  # a decision or an end: not a selection
                found = None
        self.selection_steps += steps
        if self.selection_steps > self.most_selection_steps:
            # bounded beside the folds' selections combined (docs/limits.md)
            where = f"after {self.most_selection_steps:,} steps of attackers' selections"
            raise self._refused(self.most_selection_steps, where)
        own: Own | None = None
        if found is not None:
            record_number = self._tables.record
            own = (
                self._selections_made,
                tuple(
                    (record, record_number(record), engaging, rerolled, q)
                    for (record, engaging, rerolled), q in found.items()
                ),
            )
            self._selections_made += 1
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = own
        return own

    def _own_morale(self, state: State, k: int) -> tuple[Morale, ...]:
        """Each house's morale as the ``k``-th attacker of the step reads it (7.1.4): its own
        house's (its CER modifiers, ``cer.modifiers``; the morale auto-critical,
        ``rounds.auto_critical_due``), the others' never (``UNREAD``), so that its selections
        are the same whatever the others' morale results (24S-3)."""
        morale = state.morale
        if not OWN_MORALE_ONLY or len(morale) < 2:
            return morale
        house = self.setup.units[rounds.attackers(self.setup, state)[k]].house
        return tuple(m if h == house else _UNREAD for h, m in enumerate(morale))

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
    #: for TI): the largest battle of the reach it solves needs 39,881 (three squadrons a side
    #: and a starbase, reach battle 13), and one it cannot solve is given up within the time
    #: main's 25,000 took (4 s of CPU on the loaded machine for reach battle 20), as each
    #: costs less since a step's damage is a meeting point (``advance``) and the folds'
    #: merges are memoised (docs/benchmarks.md, issue 24, 24R-3)
    settled_states = 30_000

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
            "an EC4X battle is explored state by state, each attack step's CER dice and "
            "target draws a branch for every selection they may make (7.3.1, 7.3.2, 7.3.3), "
            "and this one has " + "; ".join(sides)
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

    def growth(self, states: Sequence[State]) -> str:
        """What multiplied the chance states the exact engine explored before it stopped, as
        found in them: the units whose condition differs from state to state (by house and
        kind), the states of planetary combat (7.5, 7.6), the draws of attack steps that could
        not be folded into one distribution (``folded``), and the other facts of the battle
        that differ (morale, retreats, rounds 1 and later)."""
        setup = self.setup
        kinds = {"squadron": "squadron", "fighter": "fighter squadron", "starbase": "starbase"}
        varying: dict[tuple[int, str], int] = {}
        for u in setup.units:
            if u.kind in kinds and len({s.cond[u.index] for s in states}) > 1:
                key = (u.house, kinds[u.kind])
                varying[key] = varying.get(key, 0) + 1
        units = "; ".join(
            f"{setup.houses[h]} "
            + ", ".join(_counted(n, k) for (g, k), n in varying.items() if g == h)
            for h in sorted({h for h, _ in varying})
        )
        parts = [f"{len({s.cond for s in states}):,} conditions of its units"]
        if units:
            parts[0] += f" (those of {units} change)"
        siege = sum(1 for s in states if s.stage is Stage.PLANETARY)
        if siege:
            parts.append(f"{siege:,} states of planetary combat (7.5, 7.6)")
        drawn = sum(
            1 for s in states if s.stage is Stage.ATTACK and s.cursor and self._foldable(s) is None
        )
        if drawn:
            ordered = []
            if any(m.auto_critical for s in states for m in s.morale):
                ordered.append("a morale auto-critical falls on a house's first attacker, 7.1.4")
            if self._first_reroll_only:
                ordered.append("a starbase re-rolls only its first critical, 7.4")
            why = f" ({'; '.join(ordered)})" if ordered else ""
            parts.append(f"{drawn:,} draws within attack steps, one attacker at a time{why}")
        early = sum(1 for s in states if s.stage is Stage.ROUND_START)
        if early:
            parts.append(f"{early:,} CER dice rolled at a round's start (option cer_timing)")
        facts = (
            ("morale results", {s.morale for s in states}),
            ("retreats", {s.retreated for s in states}),
            ("round numbers", {s.round for s in states}),
        )
        parts += [f"{len(seen)} {name}" for name, seen in facts if len(seen) > 1]
        return f"its {len(states):,} battle states come from " + ", ".join(parts)

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


def _alike_runs(setup: Setup) -> tuple[tuple[int, int, int], ...]:
    """Runs of consecutive units that nothing but their uid tells apart (house, fleet, kind,
    ships, bucket, size, AS, DS, CR, carrier, starting condition): (house, first, last + 1).
    Left out: starbases (a re-rolled critical is kept per starbase, 7.4), carriers (their
    fighters name them, 7.3.1.2), a fleet's scouts, and every unit when a starbase re-rolls
    only its first critical (the attackers' order then decides which critical is
    re-rolled)."""
    if setup.options.starbase_critical_reroll != "every_critical" and any(
        u.kind == "starbase" for u in setup.units
    ):
        return ()
    carriers = {u.carrier for u in setup.units if u.carrier >= 0}
    scouts = {f.scout_unit for f in setup.fleets if f.scout_unit >= 0}

    def alike(u: Unit) -> tuple[object, ...] | None:
        if u.kind == "starbase" or u.index in carriers or u.index in scouts:
            return None
        return (
            u.house,
            u.fleet,
            u.kind,
            u.ships,
            u.bucket,
            u.size,
            u.attack,
            u.attack_crippled,
            u.defense,
            u.cr,
            u.raider,
            u.carrier,
            u.start,
            u.pc,
        )

    runs: list[tuple[int, int, int]] = []
    first = 0
    units = setup.units
    while first < len(units):
        key = alike(units[first])
        last = first + 1
        while key is not None and last < len(units) and alike(units[last]) == key:
            last += 1
        if last - first > 1:
            runs.append((units[first].house, first, last))
        first = last
    return tuple(runs)


def _counted(count: int, kind: str) -> str:
    return f"{count} {kind}" + ("" if count == 1 else "s")


def _house(outcome: Mapping[str, object], player: str) -> Mapping[str, object]:
    houses = outcome.get("houses")
    block = houses.get(player) if isinstance(houses, Mapping) else None
    return block if isinstance(block, Mapping) else {}
