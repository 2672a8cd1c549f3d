"""Monte Carlo's kernel for EC4X space combat (issue 24): the rounds of 7.3 played for a batch
of trials side by side over numpy arrays, with the same draws as the resolver.

A second form of the rounds (``rounds.py``, ``damage.py``, ``retreat.py``), held to them draw
for draw by tests (``tests/ec4x/test_kernel.py``): a trial played here ends in the same state,
with the same outcome, as ``play`` with the same seed. Each trial keeps its own SplitMix64
stream (``core/prng.py``), vectorised in uint64 arithmetic and advanced only where that trial
draws; its units' conditions are a row of a [trials x units] array; each attack step is taken in
the rules' order, attacker by attacker, masked per trial. ``below`` and ``pick`` are those of
``core/prng.py``, rejection test included.

What the kernel plays, and what it leaves to the procedures (the quiet battle,
``Ec4xBattle.quiet``, one trial at a time, with the same dice):

- before round 1 (morale 7.1.4, detection 7.1.3, engagement 7.3): the procedures, through a
  ``Sampler`` of the battle stopped where round 1 starts (``PreCombat``);
- the rounds (7.3.1–7.3.4), the ROE check with the stock policy and retreats (7.3.5), the
  screening of spacelift ships and scouts (7.2): the kernel, until space combat is over;
- everything after space combat (reembark and outcome 7.3.1.2, 7.3.6; planetary combat
  7.5–7.6): the procedures, from the state the kernel reached (``Kernel.finish``);
- the attack steps of each trial's round are those ``rounds.phases`` gives for its state
  (undetected cloaked fleets in phase 1 with Ambush or Surprise in round 1, a fleet losing its
  cloak when its Raiders are crippled); a trial whose state before round 1 has what the kernel
  does not foresee is played on by the procedures from there (``Kernel.entry`` says why).

``compile_kernel`` reads the battle's setup and raises ``KernelRefusal`` naming the first
feature or option value the kernel does not play; every field of ``Setup``, ``Unit``,
``Fleet`` and ``Ec4xOptions`` is named in ``SETUP_FIELDS``, ``UNIT_FIELDS``, ``FLEET_FIELDS``
or ``OPTIONS`` (a test fails when one is added without being handled or refused). The kernel
answers only for the stock policies (``Ec4xBattle.stock_policies``: Monte Carlo's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import numpy.typing as npt

from spacecombat.core.dice import SIDES
from spacecombat.core.engine import End, Node, Point, Sampler, Step
from spacecombat.core.prng import GOLDEN, MIX1, MIX2, SplitMix64
from spacecombat.rulesets.ec4x.battle import Ec4xBattle
from spacecombat.rulesets.ec4x.setup import MEMO_LIMIT, Fleet, Setup, Unit
from spacecombat.rulesets.ec4x.space_combat import cer, rounds
from spacecombat.rulesets.ec4x.space_combat.pre_combat import (
    house_morale,
    is_cloaked,
    task_force_roe,
)
from spacecombat.rulesets.ec4x.space_combat.targeting import regards_hostile
from spacecombat.rulesets.ec4x.state import (
    CRIPPLED,
    DESTROYED,
    GONE_CRIPPLED,
    GONE_UNDAMAGED,
    UNDAMAGED,
    Stage,
    State,
)
from spacecombat.rulesets.ec4x.tables import tables
from spacecombat.scenario.ec4x import RetreatAfterRound

U64 = np.uint64
I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]


class KernelRefusal(Exception):
    """The kernel does not play this battle: ``feature`` names what it does not implement
    (its trials are played by the quiet sampler)."""

    def __init__(self, feature: str) -> None:
        super().__init__(f"the Monte Carlo kernel does not play {feature}")
        self.feature = feature


#: what the kernel does with each option: the values it plays, or ``None``: the option is
#: read only where the procedures play (pre-combat, retreat, planetary combat) or when the
#: setup is built (its effect is in the units' numbers), so every value is played
OPTIONS: dict[str, tuple[object, ...] | None] = {
    "damage_memory": ("none", "round", "battle"),
    "squadron_losses": ("whole_squadron",),
    "phase4_order": None,  # read by rounds.phases, which the kernel calls
    "crippled_as_timing": ("immediate", "end_of_round"),
    "undamaged_destroyed_at": ("never", "twice_ds"),
    "excess_hits": ("lost",),
    "protection_judged": ("before_step", "after_step"),
    "overkill_all_means": ("all_other", "all"),
    "protection_counts_fighters": (False, True),
    "force_reduction_judged": ("own_hits", "combined_hits"),
    "force_reduction_tie": ("draw", "first_listed"),
    "force_reduction_fighters": (False, True),
    "critical_bypass": ("target", "own_hits"),
    "crippled_as_rounding": None,  # setup: Unit.attack_crippled
    "cer_die": ("0-9", "1-10"),
    "unnamed_flagship_bucket": None,  # setup: Unit.bucket
    "cer_timing": ("per_step", "round_start"),
    "morale_roll": None,  # pre-combat
    "flagship_cc_counts": None,  # scenario checks
    "check_command_rating": None,  # scenario checks
    "max_rounds": None,  # played: the cut-off at a round's end
    "starbase_tier": None,  # read by rounds.phases, which the kernel calls
    "starbase_critical_reroll": ("every_critical", "first_critical"),
    "spacelift_on_retreat": None,  # retreat: the procedures
    "stranded_crippled": None,  # retreat: the procedures
    "restricted_lane_retreat": None,  # retreat: the procedures
    "surprise": ("defender_initiative", "never"),
    "detection_scope": None,  # pre-combat
    "crisis_refusal": None,  # pre-combat
    "roe_hostile_strength": ("regarded_hostile", "either_way"),
    "undetected_later_rounds": None,  # read by rounds.phases, which the kernel calls
    "colony_units_screen": (False, True),
    "ambush_squadrons": None,  # read by rounds.phases, which the kernel calls
    "detection_units": None,  # pre-combat
    "scout_targets": ("screened",),
    "auto_critical_attack": ("cer_attack", "squadron", "any_attack"),
    "auto_critical_vs_starbase": ("reroll", "stands"),
    "bombard_crippled_as": None,  # planetary combat: the procedures
    "shield_roll": None,  # planetary
    "max_shield_level": None,  # planetary
    "battery_excess": None,  # planetary
    "battery_critical": None,  # planetary
    "blitz_marine_as": None,  # planetary
    "siege_order": None,  # planetary
    "invade_and_blitz": None,  # planetary
    "bombard_spaceports": None,  # planetary
    "invasion_bombardment": None,  # planetary
    "dominant_penalty": None,  # planetary
    "starbase_eli_cap": None,  # pre-combat detection
    "detection_comparison": None,  # pre-combat detection
    "roe0_defenseless": None,  # played: read with the ROE table
    "threat_hostility": None,  # hostility: targeting.regards_hostile, which the kernel calls
    "colonize_under_pact": None,  # hostility: as above
    "guard_triggers": None,  # engagement (pre-combat)
    "guard_engages": None,  # engagement
    "starbase_guard": None,  # engagement
    "blockade_attacked": None,  # engagement
    "engage_on": None,  # engagement
}

#: how the kernel reads each field of ``Setup`` (a test checks that every field is named)
SETUP_FIELDS = {
    "scenario": "houses' retreat settings and lanes (the ROE check); the rest via the setup",
    "options": "checked against OPTIONS",
    "houses": "played",
    "statuses": "hostility: targeting.regards_hostile",
    "controller": "hostility, task_force_roe",
    "units": "played (each field: UNIT_FIELDS)",
    "fleets": "played (each field: FLEET_FIELDS)",
    "colony_units": "played as units; escorts of screened ships (7.2)",
    "starbase_eli": "pre-combat detection",
    "quiet": "the quiet battle plays what the kernel leaves",
    "hostility": "memo",
    "phase_memo": "memo",
    "attacker_memo": "memo",
    "candidate_memo": "memo",
    "provisional_memo": "memo",
    "standing_memo": "memo",
}
UNIT_FIELDS = {
    "index": "played",
    "uid": "the log only",
    "house": "played",
    "fleet": "played (the ROE check's fleet units)",
    "kind": "played; targetable scouts refused",
    "ships": "played: a Raider aboard keeps its fleet's cloak (2.4.3); rounds.phases",
    "bucket": "played (7.3.2.4)",
    "size": "played (7.3.2.5)",
    "attack": "played",
    "attack_crippled": "played",
    "defense": "played",
    "cr": "played through rounds.phases",
    "raider": "played through rounds.phases",
    "carrier": "retreat: the procedures",
    "start": "the entry state's conditions",
    "pc": "outcome: the procedures",
}
FLEET_FIELDS = {
    "index": "played",
    "fid": "the log only",
    "house": "played",
    "order": "hostility and engagement (the procedures)",
    "roe": "task_force_roe",
    "units": "played",
    "scouts": "played (7.2 screening, 7.3.3 scouts modifier)",
    "spacelift": "played (7.2 screening); their retreat: the procedures",
    "has_cloak": "pre_combat.is_cloaked, read at round 1",
    "clk": "pre-combat detection",
    "scout_unit": "refused: targetable scouts (option scout_targets)",
}


def compile_kernel(battle: Ec4xBattle) -> Kernel:
    """The kernel of ``battle``, or ``KernelRefusal`` naming the first feature or option value
    it does not play."""
    setup = battle.setup
    options = setup.options
    for name in type(options).model_fields:
        allowed = OPTIONS.get(name, ())
        if name not in OPTIONS:
            raise KernelRefusal(f"option {name} (unknown to the kernel)")
        value = getattr(options, name)
        if allowed is not None and value not in allowed:
            raise KernelRefusal(f"option {name}: {value}")
    for what, known, cls in (
        ("Setup", SETUP_FIELDS, Setup),
        ("Unit", UNIT_FIELDS, Unit),
        ("Fleet", FLEET_FIELDS, Fleet),
    ):
        for f in fields(cls):
            if f.name not in known:
                raise KernelRefusal(f"{what}.{f.name} (unknown to the kernel)")
    for u in setup.units:
        if u.kind == "scouts":
            raise KernelRefusal("targetable scouts (option scout_targets)")
        if u.kind not in ("squadron", "fighter", "starbase"):
            raise KernelRefusal(f"units of kind {u.kind}")
    if len(setup.houses) > 7:
        raise KernelRefusal("more than 7 houses")
    return Kernel(battle)


# ---- SplitMix64, vectorised (core/prng.py) ----------------------------------------------------

_GOLDEN, _MIX1, _MIX2 = U64(GOLDEN), U64(MIX1), U64(MIX2)
_S30, _S27, _S31 = U64(30), U64(27), U64(31)
_ONE = U64(1)


def below(states: npt.NDArray[np.uint64], rows: I64, n: npt.NDArray[np.uint64]) -> I64:
    """``SplitMix64.below(n[i])`` for the streams ``states[rows[i]]``, each advanced by its
    own draws: ``x = next()`` until ``x < 2^64 − (2^64 mod n)``; ``x mod n``."""
    n = n.astype(np.uint64)
    rem = (~n + _ONE) % n  # (2^64 − n) mod n = 2^64 mod n
    out = np.empty(len(rows), dtype=np.uint64)
    todo = np.arange(len(rows))
    while len(todo):
        r = rows[todo]
        s = states[r] + _GOLDEN
        states[r] = s
        z = (s ^ (s >> _S30)) * _MIX1
        z = (z ^ (z >> _S27)) * _MIX2
        x = z ^ (z >> _S31)
        m = rem[todo]
        # limit = 2^64 − rem; with rem 0 every x is below it
        accept = (m == 0) | (x < (~m + _ONE))
        out[todo[accept]] = x[accept] % n[todo][accept]
        todo = todo[~accept]
    return out.astype(np.int64)


# ---- entry and exit ---------------------------------------------------------------------------


def at_round_one(state: State) -> bool:
    """The state where round 1 is about to start (``rounds.round_start`` after 7.2's check)."""
    return state.stage is Stage.ROUND_START and state.round == 0 and state.cursor == (1,)


class PreCombat:
    """The quiet battle up to round 1 (or its end, if it never gets there): a process for a
    ``Sampler``, so that the steps before the rounds are walked once for each point and outcome
    of the dice, as Monte Carlo's sampler walks them."""

    def __init__(self, battle: Ec4xBattle) -> None:
        self.battle = battle

    def start(self) -> Step[State]:
        return self.battle.start()

    def advance(self, state: State) -> Node[State]:
        if at_round_one(state) or state.stage in (Stage.OVER, Stage.PLANETARY):
            return End({}, ())
        return self.battle._node(state)


class FromState(Sampler[State]):
    """A ``Sampler`` of the battle played on from any state (what the kernel leaves of a
    trial): walked once for each point and outcome of the dice it meets, as Monte Carlo's
    sampler walks a battle from its start; the same draws and ends as ``play``."""

    def play_from(self, state: State, dice: StreamDice) -> Point[State]:
        self._start = self._reach(state)
        return self.play(dice)


class StreamDice:
    """The dice of ``SplitMixDice`` on a generator whose state the kernel sets."""

    def __init__(self, generator: SplitMix64) -> None:
        self.generator = generator

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(self.generator.below(SIDES) + 1 for _ in range(count))

    def pick(self, weights: Any) -> int:
        return self.generator.pick(weights)


@dataclass(frozen=True)
class Entry:
    """What the kernel reads of a trial's state at round 1 (the same for every trial whose
    state before round 1 is the same)."""

    #: hostile[e, a, b]: house a regards house b hostile (7.3.2.1), e: b attacked a in an
    #: earlier round of this combat (condition 4, the only part that changes in combat)
    hostile: B
    #: per unit: its CER roll's modifier but scouts' (morale 7.1.4, starbase 7.4)
    modifier: I64
    #: per house: the morale auto-critical is due (7.1.4)
    auto: B
    #: per house: its Task Force's ROE (7.2)
    roe: I64
    #: per fleet: it joined the combat (``State.joined``)
    joined: B
    #: per fleet: it is cloaked (``pre_combat.is_cloaked``: fixed in combat)
    cloaked: B
    #: what this trial's attack steps depend on but detection and the round (``rounds.phases``)
    state: State
    #: [house, unit]: the units that escort its screened ships (7.2): those of its joined
    #: fleets, and its colony's with option colony_units_screen
    escorts: B


@dataclass
class Batch:
    """The trials played side by side: each row one trial (``rounds``' and ``damage``'s state
    as arrays)."""

    #: SplitMix64 state of each trial's stream
    seeds: npt.NDArray[np.uint64]
    #: [trial, unit] conditions (``State.cond``)
    cond: npt.NDArray[np.int8]
    #: [trial, unit] hits kept below DS (option damage_memory), else zeros
    damage: I64
    #: [trial, a, b]: house a regards house b hostile now
    hostile: B
    modifier: I64
    auto_due: B
    #: [trial, house]: the morale auto-critical is spent (``State.auto_used``)
    auto_used: B
    #: ``State.engaged``, ``State.engaging``, ``State.screened_lost``, ``State.rerolled``
    engaged: I64
    engaging: I64
    screened_lost: I64
    rerolled: I64
    #: [trial, fleet]: the fleet joined the combat
    joined: B
    #: ``State.detected`` (bit f), and the house that won initiative (-1 none)
    detected: I64
    initiative: I64
    #: ``State.retreated`` (bit h), ``State.stranded`` (bit f), ``State.spacelift_left``
    retreated: I64
    stranded: I64
    spacelift_left: I64
    #: [trial, unit] conditions at the round's start (option crippled_as_timing:
    #: end_of_round, ``State.as_cond``), else the conditions themselves
    as_cond: npt.NDArray[np.int8]
    #: [trial, unit] the CER die each unit rolled at the round's start (option cer_timing:
    #: round_start, ``State.cer_rolls``; ``rounds.NO_ROLL``: none)
    cer_rolls: I64


class Kernel:
    """The rounds of one battle for batches of trials (see the module's docstring)."""

    def __init__(self, battle: Ec4xBattle) -> None:
        self.battle = battle.quiet() if not battle.setup.quiet else battle
        setup = self.setup = self.battle.setup
        self.policies = self.battle.stock_policies()
        self.pre = Sampler(PreCombat(self.battle), self.policies)
        self.tail = FromState(self.battle, self.policies)
        units = setup.units
        self.n_units = n = len(units)
        self.n_houses = h = len(setup.houses)
        self.house = np.array([u.house for u in units], dtype=np.int64)
        self.defense = np.array([u.defense for u in units], dtype=np.int64)
        self.attack = np.array([u.attack for u in units], dtype=np.int64)
        self.attack_crippled = np.array([u.attack_crippled for u in units], dtype=np.int64)
        self.fighter = np.array([u.kind == "fighter" for u in units], dtype=np.bool_)
        self.squadron = np.array([u.kind == "squadron" for u in units], dtype=np.bool_)
        self.starbase = np.array([u.kind == "starbase" for u in units], dtype=np.bool_)
        self.bucket = np.array([u.bucket for u in units], dtype=np.int64)
        weights = tables().bucket_weight
        self.weight = np.array([weights[u.bucket] * u.size for u in units], dtype=np.int64)
        self.in_fleet = np.array([u.fleet >= 0 for u in units], dtype=np.bool_)
        self.house_mask = np.array([[u.house == g for u in units] for g in range(h)])
        self.house_matrix = self.house_mask.T.astype(np.int64)  # [unit, house]
        options = setup.options
        self.first_face = cer.die_first(setup)
        #: hits of a CER roll: [unit, crippled, modified roll + offset] (7.3.3; the CER table
        #: is constant below 3 and above 7)
        self.offset = 20
        self.hits = np.zeros((n, 2, 60), dtype=np.int64)
        for u in units:
            for crippled, strength in ((0, u.attack), (1, u.attack_crippled)):
                for k in range(60):
                    self.hits[u.index, crippled, k] = cer.result(k - self.offset, strength)[1]
        which = options.auto_critical_attack
        #: the units whose attack the morale auto-critical may fall on (E52)
        self.auto_kind = np.array(
            [
                u.uses_cer
                if which == "cer_attack"
                else (u.kind == "squadron" if which == "squadron" else u.fires)
                for u in units
            ],
            dtype=np.bool_,
        )
        #: units counted by destruction protection (7.3.3 restriction 2, E28)
        self.protection_counts = self.squadron | (self.fighter & options.protection_counts_fighters)
        #: units force reduction may reduce (7.3.3 critical hits 2)
        self.reducible = self.squadron | (self.fighter & options.force_reduction_fighters)
        specs = setup.scenario.houses
        self.lane_none = [specs[name].retreat_lane == "none" for name in setup.houses]
        self.retreat_setting = [specs[name].retreat for name in setup.houses]
        self.roe_rules = tables().roe
        fleets = setup.fleets
        self.n_fleets = len(fleets)
        self.fleet_house = np.array([f.house for f in fleets], dtype=np.int64)
        #: [fleet, house]: the fleet's house, for sums over a house's fleets
        self.fleet_matrix = np.array(
            [[f.house == g for g in range(h)] for f in fleets], dtype=np.int64
        ).reshape(len(fleets), h)
        self.fleet_units = np.zeros((len(fleets), n), dtype=np.bool_)
        for f in fleets:
            self.fleet_units[f.index, list(f.units)] = True
        self.fleet_empty = np.array([not f.units for f in fleets], dtype=np.bool_)
        self.fleet_spacelift = np.array([bool(f.spacelift) for f in fleets], dtype=np.bool_)
        self.fleet_scouts = np.array(
            [bool(f.scouts) and f.scout_unit < 0 for f in fleets], dtype=np.bool_
        )
        self.unit_fleet = np.array([u.fleet for u in units], dtype=np.int64)
        self.carrier = np.array([u.carrier for u in units], dtype=np.int64)
        self.lanes = [specs[name].retreat_lane for name in setup.houses]
        self.late = options.crippled_as_timing == "end_of_round"
        self.early = options.cer_timing == "round_start"
        self._entries: dict[tuple[object, ...], Entry | str] = {}
        self._ends: dict[State, tuple[State, Mapping[str, object]]] = {}
        #: every attack step a round may have (7.3.1: phases 1–3, and phase 4 by CR tier, or
        #: as one step), in the order taken; ``rounds.phases`` says which is each unit's
        tiers = {0}
        for u in units:
            tiers.add(u.cr)
        tiers |= {rounds.STARBASE_FIRST, rounds.STARBASE_LAST}
        steps = {(1, 0), (2, 0), (3, 0), *((4, t) for t in tiers)}
        self.step_order = sorted(steps, key=lambda p: (p[0], -p[1]))
        self.step_index = {p: i for i, p in enumerate(self.step_order)}
        self._steps_memo: dict[tuple[object, ...], I64] = {}
        #: [fleet, unit]: its squadrons with an undamaged Raider keep its cloak (2.4.3)
        self.raiders = np.zeros((len(fleets), n), dtype=np.bool_)
        for f in fleets:
            for member in f.units:
                self.raiders[f.index, member] = "RR" in units[member].ships
        self.surprise = options.surprise == "defender_initiative"

    # -- per trial: entry ----------------------------------------------------------------------

    def entry(self, state: State) -> Entry | str:
        """What the kernel reads of a trial at round 1, or why it leaves the trial to the
        procedures (a refusal)."""
        key = state.at(state.stage, round=0)
        found = self._entries.get(key)
        if found is None:
            found = self._entry(state)
            if len(self._entries) >= MEMO_LIMIT:
                self._entries.clear()
            self._entries[key] = found
        return found

    def refusals(self) -> set[str]:
        """Why trials met so far were left to the procedures at round 1 (``entry``)."""
        return {found for found in self._entries.values() if isinstance(found, str)}

    def _entry(self, state: State) -> Entry | str:
        setup = self.setup
        if state.as_cond or state.cer_rolls or state.retreated or state.spacelift_left:
            return "conditions, rolls or retreats kept before round 1"
        if any(state.damage):
            return "hits kept before round 1"
        h, n = self.n_houses, self.n_units
        hostile = np.zeros((2, h, h), dtype=np.bool_)
        for a in range(h):
            for b in range(h):
                for engaged in (0, 1):
                    bit = engaged << (b * h + a)
                    hostile[engaged, a, b] = regards_hostile(
                        setup, state.at(state.stage, engaged=bit), a, b
                    )
        for later in (1, 2):
            found = rounds.phases(setup, state.at(state.stage, round=later))
            if any(p not in self.step_index for p in found if p != rounds.NO_STEP):
                return "an attack step the kernel did not foresee"
        modifier = np.where(self.starbase, cer.STARBASE, 0).astype(np.int64)
        auto = np.zeros(h, dtype=np.bool_)
        for g in range(h):
            morale = house_morale(setup, state, g)
            auto[g] = morale.auto_critical
            modifier[self.house == g] += morale.all_cer
            if morale.boosted >= 0 and morale.one_cer:
                modifier[morale.boosted] += morale.one_cer
        roe = np.array([task_force_roe(setup, state, g) for g in range(h)], dtype=np.int64)
        joined = np.array([bool(state.joined >> f.index & 1) for f in setup.fleets], dtype=bool)
        escorts = np.zeros((h, n), dtype=np.bool_)
        for f in setup.fleets:
            if joined[f.index]:
                escorts[f.house, list(f.units)] = True
        if setup.options.colony_units_screen and setup.controller >= 0:
            escorts[setup.controller, list(setup.colony_units)] = True
        cloaked = np.array([is_cloaked(setup, state, f.index) for f in setup.fleets], dtype=bool)
        base = state.at(state.stage, round=0, detected=0)
        return Entry(
            hostile=hostile,
            modifier=modifier,
            auto=auto,
            roe=roe,
            joined=joined,
            cloaked=cloaked,
            state=base,
            escorts=escorts,
        )

    def unit_steps(self, entry: Entry, detected: int, later: bool) -> I64:
        """Each unit's attack step this round (an index into ``step_order``, -1: none), as
        ``rounds.phases`` gives it for the trial's state with ``detected`` in round 1 or a
        later round (memoised)."""
        key = (entry.state, detected, later)
        found = self._steps_memo.get(key)
        if found is None:
            state = entry.state.at(entry.state.stage, detected=detected, round=2 if later else 1)
            found = np.array(
                [
                    -1 if p == rounds.NO_STEP else self.step_index[p]
                    for p in rounds.phases(self.setup, state)
                ],
                dtype=np.int64,
            )
            if len(self._steps_memo) >= MEMO_LIMIT:
                self._steps_memo.clear()
            self._steps_memo[key] = found
        return found

    # -- per trial: the rest, by the procedures -------------------------------------------------

    def finish(self, state: State, dice: StreamDice) -> tuple[State, Mapping[str, object]]:
        """The battle played on from ``state`` by the quiet procedures with ``dice`` (through
        a sampler, ``FromState``), to its end: the end's state and outcome."""
        memo = state.stage is Stage.OVER and self.battle.planetary is None
        if memo:
            # space combat over, no draw left: the end is that of the same state in any other
            # round but for its round, which the outcome reads only as its ``rounds``
            # (``outcome.outcome``; ``Ec4xBattle.end_key`` forgets the round alike)
            known = self._ends.get(state.at(state.stage, round=0))
            if known is not None:
                last, outcome = known
                if last.round == state.round:
                    return known
                return last.at(last.stage, round=state.round), {**outcome, "rounds": state.round}
        point = self.tail.play_from(state, dice)
        assert point.outcome is not None
        result = (point.state, point.outcome)
        if memo:
            if len(self._ends) >= MEMO_LIMIT:
                self._ends.clear()
            self._ends[state.at(state.stage, round=0)] = result
        return result

    # -- a batch --------------------------------------------------------------------------------

    def play(self, seeds: list[int]) -> list[tuple[State, Mapping[str, object]]]:
        """Each trial's end (state and outcome), one per SplitMix64 seed, in order."""
        count = len(seeds)
        generators = [SplitMix64(seed) for seed in seeds]
        starts: list[State] = []
        entries: list[Entry | str] = []
        for g in generators:
            end: Point[State] = self.pre.play(StreamDice(g))
            state = end.state
            starts.append(state)
            entries.append(self.entry(state) if at_round_one(state) else "not in combat")
        rows = [t for t in range(count) if isinstance(entries[t], Entry)]
        exits: list[State] = list(starts)
        if rows:
            self._rounds(rows, starts, entries, generators, exits)
        return [self.finish(exits[t], StreamDice(generators[t])) for t in range(count)]

    def _rounds(
        self,
        rows: list[int],
        starts: list[State],
        entries: list[Entry | str],
        generators: list[SplitMix64],
        exits: list[State],
    ) -> None:
        """7.3.1–7.3.4 for the trials ``rows`` (all at round 1), in lockstep: each round's
        attack steps (``rounds.round_start``, ``_step``), then its end (``rounds.round_end``)
        and the ROE check (``retreat.roe_check``). A trial leaves when its combat is over, cut
        off (option max_rounds), or a house of it retreats (then at its ROE check)."""
        options = self.setup.options
        k, h, n = len(rows), self.n_houses, self.n_units
        es = [e for e in (entries[t] for t in rows) if isinstance(e, Entry)]
        first = [starts[t] for t in rows]
        hostility = np.array([e.hostile for e in es], dtype=np.bool_)  # [k, 2, h, h]
        # the bit of "b attacked a" (State.engaged) for each pair (a, b)
        shift = np.array([[b * h + a for b in range(h)] for a in range(h)], dtype=np.int64)
        batch = Batch(
            seeds=np.array([generators[t].state for t in rows], dtype=np.uint64),
            cond=np.array([s.cond for s in first], dtype=np.int8),
            damage=(
                np.array([s.damage for s in first], dtype=np.int64)
                if options.damage_memory != "none"
                else np.zeros((k, n), dtype=np.int64)
            ),
            hostile=np.zeros((k, h, h), dtype=np.bool_),
            modifier=np.array([e.modifier for e in es], dtype=np.int64),
            auto_due=np.array([e.auto for e in es], dtype=np.bool_),
            auto_used=np.array(
                [[bool(s.auto_used >> g & 1) for g in range(h)] for s in first], dtype=np.bool_
            ),
            engaged=np.array([s.engaged for s in first], dtype=np.int64),
            engaging=np.zeros(k, dtype=np.int64),
            screened_lost=np.array([s.screened_lost for s in first], dtype=np.int64),
            rerolled=np.array([s.rerolled for s in first], dtype=np.int64),
            joined=np.array([e.joined for e in es], dtype=np.bool_).reshape(k, self.n_fleets),
            detected=np.array([s.detected for s in first], dtype=np.int64),
            initiative=np.array([s.initiative for s in first], dtype=np.int64),
            retreated=np.array([s.retreated for s in first], dtype=np.int64),
            stranded=np.array([s.stranded for s in first], dtype=np.int64),
            spacelift_left=np.array([s.spacelift_left for s in first], dtype=np.int64),
            as_cond=np.zeros((k, n), dtype=np.int8),
            cer_rolls=np.full((k, n), rounds.NO_ROLL, dtype=np.int64),
        )
        early = options.cer_timing == "round_start"
        rolling = [u.index for u in self.setup.units if u.uses_cer]
        late = options.crippled_as_timing == "end_of_round"
        roe = np.array([e.roe for e in es], dtype=np.int64)
        escorts = np.array([e.escorts for e in es], dtype=np.bool_)

        def hostile_now(at: I64) -> B:
            """[trials, a, b]: house a regards house b hostile now (7.3.2.1)."""
            bit = (batch.engaged[at][:, None, None] >> shift) & 1
            found: B = np.where(bit == 1, hostility[at, 1], hostility[at, 0])
            return found

        everyone = np.arange(k)
        batch.hostile[everyone] = hostile_now(everyone)
        round_no = np.array([s.round for s in first], dtype=np.int64)
        present = np.zeros((k, len(self.step_order)), dtype=np.bool_)
        unit_step = np.full((k, n), -1, dtype=np.int64)
        # the detection and round (1 or later) each trial's unit_step was found for
        seen_detected = np.full(k, -1, dtype=np.int64)
        seen_later = np.zeros(k, dtype=np.bool_)
        cloaked = np.array([e.cloaked for e in es], dtype=np.bool_).reshape(k, self.n_fleets)
        #: 0 playing, 1 over, 2 cut off
        status = np.zeros(k, dtype=np.int64)
        limit = options.max_rounds
        either = options.roe_hostile_strength == "either_way"
        fleet_units = self.in_fleet[None, :] & self.house_mask  # [h, n]
        active = everyone
        while len(active):
            # 7.3.4: a new round; its attack steps: those of the units fighting at its start
            round_no[active] += 1
            batch.engaging[active] = 0
            c0 = batch.cond[active]
            if late:
                batch.as_cond[active] = c0
            alive0 = (c0 == UNDAMAGED) | (c0 == CRIPPLED)
            # each unit's step this round: by the trial's detection and round 1 or later
            later = round_no[active] > 1
            changed = (batch.detected[active] != seen_detected[active]) | (
                later != seen_later[active]
            )
            for i in np.nonzero(changed)[0]:
                t = int(active[i])
                unit_step[t] = self.unit_steps(es[t], int(batch.detected[t]), bool(later[i]))
            seen_detected[active] = batch.detected[active]
            seen_later[active] = later
            steps_now = unit_step[active]
            for s in range(len(self.step_order)):
                present[active, s] = (alive0 & (steps_now == s)).any(axis=1)
            if early:
                # option cer_timing: round_start: every unit using CER rolls now, in unit order
                batch.cer_rolls[active] = rounds.NO_ROLL
                for u in rolling:
                    at = active[alive0[:, u]]
                    if len(at):
                        die = below(batch.seeds, at, np.full(len(at), 10))
                        batch.cer_rolls[at, u] = self.first_face + die
            for s in range(len(self.step_order)):
                local = np.nonzero(present[active, s])[0]
                if len(local):
                    sub = active[local]
                    self._step(batch, sub, s, unit_step[sub] == s, round_no[sub] == 1)
            # 7.3.4 steps 1–3: the round's end
            batch.engaged[active] |= batch.engaging[active]
            batch.engaging[active] = 0
            if cloaked.any():
                # 2.4.3: a fleet in the combat whose Raiders are all crippled or destroyed
                # loses its cloak (``rounds.round_end``)
                c = batch.cond[active]
                bits = np.arange(self.n_fleets)
                hidden = cloaked[active] & batch.joined[active]
                hidden &= ((batch.detected[active][:, None] >> bits) & 1) == 0
                keeps = ((c == UNDAMAGED)[:, None, :] & self.raiders[None]).any(axis=2)
                lost = hidden & ~keeps
                batch.detected[active] |= (lost.astype(np.int64) << bits).sum(axis=1)
            if options.damage_memory == "round":
                batch.damage[active] = 0
            batch.hostile[active] = hostile_now(active)
            c = batch.cond[active]
            alive = (c == UNDAMAGED) | (c == CRIPPLED)
            remaining = (alive.astype(np.int64) @ self.house_matrix) > 0  # [a, h]
            hs = batch.hostile[active]
            either_way = hs | hs.transpose(0, 2, 1)
            self._screened_check(batch, active, alive, remaining, either_way, escorts)
            strength_units = np.where(c == CRIPPLED, self.attack_crippled, self.attack) * alive
            strength = strength_units @ self.house_matrix  # [a, h]
            # Combat Termination: two remaining Task Forces hostile either way
            pairs = remaining[:, :, None] & remaining[:, None, :] & either_way
            continues = pairs.any(axis=(1, 2))
            status[active[~continues]] = 1
            if limit is not None:
                cut = continues & (round_no[active] >= limit)
                status[active[cut]] = 2
                continues &= ~cut
            # 7.3.4 step 4: the ROE check, house by house, with the stock policy
            # (``battle.RoePolicy``; ``retreat.why_not``)
            retreat = np.zeros((len(active), h), dtype=np.bool_)
            gone = batch.retreated[active]
            for g in range(h):
                if self.lane_none[g]:
                    continue
                may = continues & remaining[:, g] & (alive & fleet_units[g]).any(axis=1)
                may &= ((gone >> g) & 1) == 0
                if not may.any():
                    continue
                setting = self.retreat_setting[g]
                if setting == "never":
                    continue
                if isinstance(setting, RetreatAfterRound):
                    retreat[:, g] = may & (round_no[active] >= setting.after_round)
                    continue
                regarded = hs[:, g, :] | (hs[:, :, g] if either else False)
                regarded = regarded & remaining
                regarded[:, g] = False
                against = (strength * regarded).sum(axis=1)
                allows = self._roe_allows(roe[active, g], strength[:, g], against)
                retreat[:, g] = may & ~allows
            leaving = np.nonzero(retreat.any(axis=1))[0]
            if len(leaving):
                at = active[leaving]
                self._retreat(batch, at, retreat[leaving], escorts)
                # combat goes on unless the retreats ended it (``retreat._retreat``)
                c = batch.cond[at]
                alive = (c == UNDAMAGED) | (c == CRIPPLED)
                remaining = (alive.astype(np.int64) @ self.house_matrix) > 0
                hs = batch.hostile[at]
                either_way = hs | hs.transpose(0, 2, 1)
                pairs = remaining[:, :, None] & remaining[:, None, :] & either_way
                status[at[~pairs.any(axis=(1, 2))]] = 1
            active = active[status[active] == 0]
        self._exits(batch, rows, starts, present, round_no, status, generators, exits)

    def _exits(
        self,
        batch: Batch,
        rows: list[int],
        starts: list[State],
        present: B,
        round_no: I64,
        status: I64,
        generators: list[SplitMix64],
        exits: list[State],
    ) -> None:
        """The state each trial reached (as the procedures make it) and its stream."""
        h = self.n_houses
        memory = self.setup.options.damage_memory != "none"
        late = self.setup.options.crippled_as_timing == "end_of_round"
        early = self.setup.options.cer_timing == "round_start"
        for i, t in enumerate(rows):
            steps = tuple(p for s, p in enumerate(self.step_order) if present[i, s])
            changes: dict[str, Any] = {
                "cond": tuple(int(x) for x in batch.cond[i]),
                "round": int(round_no[i]),
                "damage": tuple(int(x) for x in batch.damage[i]) if memory else (),
                "as_cond": tuple(int(x) for x in batch.as_cond[i]) if late else (),
                "cer_rolls": tuple(int(x) for x in batch.cer_rolls[i]) if early else (),
                "engaged": int(batch.engaged[i]),
                "engaging": 0,
                "screened_lost": int(batch.screened_lost[i]),
                "detected": int(batch.detected[i]),
                "retreated": int(batch.retreated[i]),
                "stranded": int(batch.stranded[i]),
                "spacelift_left": int(batch.spacelift_left[i]),
                "rerolled": int(batch.rerolled[i]),
                "auto_used": starts[t].auto_used
                | sum(1 << g for g in range(h) if batch.auto_used[i, g]),
                "steps": steps,
                "step": len(steps),
                "attacks": (),
                "retreating": 0,
            }
            result = "cut_off" if status[i] == 2 else starts[t].result
            exits[t] = starts[t].at(Stage.OVER, cursor=(), result=result, **changes)
            generators[t].state = int(batch.seeds[i])

    def _scouts_gone(self, batch: Batch, at: I64) -> B:
        """[trial, fleet]: its scouts left with its house's retreat (``rounds.scouts_gone``):
        they go with their fleet, unless it stayed whole at a restricted lane (E41)."""
        retreated = ((batch.retreated[at][:, None] >> self.fleet_house) & 1) == 1
        stranded = ((batch.stranded[at][:, None] >> np.arange(self.n_fleets)) & 1) == 1
        gone: B = retreated & ~stranded
        return gone

    def _screened_check(
        self,
        batch: Batch,
        active: I64,
        alive: B,
        remaining: B,
        either_way: B,
        escorts: B,
    ) -> None:
        """``rounds.screened_check`` (7.2): a house's screened ships (spacelift ships that did
        not leave, scouts that did not leave) are destroyed when none of its escorts fights on
        while a house hostile to it either way remains."""
        if not (self.fleet_spacelift.any() or self.fleet_scouts.any()):
            return
        gone = self._scouts_gone(batch, active)
        joined = batch.joined[active]
        for g in range(self.n_houses):
            lost = ((batch.screened_lost[active] >> g) & 1) == 1
            lift_gone = ((batch.spacelift_left[active] >> g) & 1) == 1
            mine = joined & (self.fleet_house == g)
            screened = mine & (
                (self.fleet_spacelift & ~lift_gone[:, None]) | (self.fleet_scouts & ~gone)
            )
            due = screened.any(axis=1) & ~lost
            if not due.any():
                continue
            escorted = (alive & escorts[active, g]).any(axis=1)
            others = remaining.copy()
            others[:, g] = False
            threatened = (others & either_way[:, g, :]).any(axis=1)
            batch.screened_lost[active[due & ~escorted & threatened]] |= 1 << g

    def _retreat(self, batch: Batch, at: I64, leaving: B, escorts: B) -> None:
        """``retreat._retreat`` (7.3.5) for the trials ``at``, ``leaving[t, h]``: house h
        retreats. Its fleets' squadrons leave (a crippled one cannot take a restricted lane:
        option stranded_crippled; with restricted_lane_retreat: per_fleet such a fleet stays
        whole, E41); its carriers' fighters go with their carrier, or are destroyed with it;
        colony units stay; spacelift ships leave with option spacelift_on_retreat: retreats
        (7.2, E40); then 7.2's screened check."""
        options = self.setup.options
        cond = batch.cond[at].astype(np.int64)
        for g in range(self.n_houses):
            rows = np.nonzero(leaving[:, g])[0]
            if not len(rows):
                continue
            c = cond[rows]
            lane = self.lanes[g]
            held = np.zeros((len(rows), self.n_fleets), dtype=np.bool_)
            if lane == "restricted" and options.restricted_lane_retreat == "per_fleet":
                alive = (c == UNDAMAGED) | (c == CRIPPLED)
                weak = (c == CRIPPLED) & ~self.fighter
                for f in range(self.n_fleets):
                    if self.fleet_house[f] != g:
                        continue
                    units = self.fleet_units[f]
                    crippled = (options.stranded_crippled == "stay") & (weak & units).any(axis=1)
                    lift = options.spacelift_on_retreat == "retreats" and self.fleet_spacelift[f]
                    fights = (alive & units).any(axis=1)
                    held[:, f] = batch.joined[at[rows], f] & (crippled | lift) & fights
                bits = (held.astype(np.int64) << np.arange(self.n_fleets)).sum(axis=1)
                batch.stranded[at[rows]] |= bits
            own = (self.house == g) & (self.unit_fleet >= 0) & ~self.fighter
            stays = held[:, np.maximum(self.unit_fleet, 0)] & (self.unit_fleet >= 0)
            moving = own & ~stays
            c = np.where(moving & (c == UNDAMAGED), GONE_UNDAMAGED, c)
            if lane != "restricted":
                c = np.where(moving & (c == CRIPPLED), GONE_CRIPPLED, c)
            elif options.stranded_crippled == "destroyed":
                c = np.where(moving & (c == CRIPPLED), DESTROYED, c)
            carried = (self.house == g) & self.fighter & (self.carrier >= 0)
            for u in np.nonzero(carried)[0]:
                fights = (c[:, u] == UNDAMAGED) | (c[:, u] == CRIPPLED)
                carrier = c[:, self.carrier[u]]
                away = fights & ((carrier == GONE_UNDAMAGED) | (carrier == GONE_CRIPPLED))
                lost = fights & (carrier == DESTROYED)
                c[away, u] = GONE_UNDAMAGED
                c[lost, u] = DESTROYED
            cond[rows] = c
            batch.retreated[at[rows]] |= 1 << g
            if options.spacelift_on_retreat == "retreats" and lane != "restricted":
                batch.spacelift_left[at[rows]] |= 1 << g
        batch.cond[at] = cond.astype(np.int8)
        alive = (cond == UNDAMAGED) | (cond == CRIPPLED)
        remaining = (alive.astype(np.int64) @ self.house_matrix) > 0
        hs = batch.hostile[at]
        self._screened_check(batch, at, alive, remaining, hs | hs.transpose(0, 2, 1), escorts)

    def _roe_allows(self, roe: I64, own: I64, hostile: I64) -> B:
        """``tables.roe_allows`` over arrays (7.1.1)."""
        allows = np.zeros(len(roe), dtype=np.bool_)
        stay0 = self.setup.options.roe0_defenseless == "stay"
        for level in np.unique(roe):
            rule = self.roe_rules[int(level)]
            at = roe == level
            if rule.rule == "always":
                allows[at] = True
            elif rule.rule == "never":
                allows[at] = (hostile[at] == 0) & stay0
            elif rule.rule == "defenseless":
                allows[at] = hostile[at] == 0
            else:
                assert rule.own is not None
                assert rule.hostile is not None
                allows[at] = own[at] * rule.hostile >= hostile[at] * rule.own
        return allows

    def _step(self, batch: Batch, sub: I64, step: int, firing: B, first_round: B) -> None:
        """One attack step (7.3.1, ``step_order[step]``) for the trials ``sub`` (``firing``:
        [trial, unit] the units whose step it is): each attacker's selection in unit order
        (``rounds.attack``: its CER die, its target, a starbase's re-roll), then the damage
        (``damage.apply_damage``) and the force reductions (``force_reduction``)."""
        options = self.setup.options
        k, h = len(sub), self.n_houses
        c = batch.cond[sub].astype(np.int64)
        alive = (c == UNDAMAGED) | (c == CRIPPLED)
        crippled = c == CRIPPLED
        # 7.1.2: AS halved when crippled, from the next step on or the next round (E23)
        weak = crippled if not self.late else batch.as_cond[sub] == CRIPPLED
        # 7.3.3 Scouts: +1 while a joined fleet with scouts has a unit fighting (or has none)
        scouts = self._has_scouts(batch, sub, alive)
        members = np.nonzero(firing.any(axis=0))[0]
        m = len(members)
        # 7.3.1.1 Ambush +4 (or Surprise +3 for the house that won initiative, E42): phase 1
        # of round 1 only
        bonus_step = np.zeros(k, dtype=np.int64)
        if self.step_order[step][0] == 1:
            surprised = (batch.initiative[sub] >= 0) & self.surprise
            bonus_step = np.where(surprised, cer.SURPRISE, cer.AMBUSH) * first_round
        target = np.full((k, m), -1, dtype=np.int64)
        hits = np.zeros((k, m), dtype=np.int64)
        critical = np.zeros((k, m), dtype=np.bool_)
        pools: dict[tuple[int, bool], I64] = {}
        every = options.starbase_critical_reroll == "every_critical"
        auto_reroll = options.auto_critical_vs_starbase == "reroll"
        for j, unit in enumerate(members):
            u = int(unit)
            fires = np.nonzero(alive[:, u] & firing[:, u])[0]
            if not len(fires):
                continue
            g = int(self.house[u])
            fighter = bool(self.fighter[u])
            w = pools.get((g, fighter))
            if w is None:
                w = self._pool(alive, crippled, batch.hostile[sub, g][:, self.house], fighter)
                pools[(g, fighter)] = w
            total = w[fires].sum(axis=1)
            valid = total > 0  # 7.3.2.1 "No Valid Targets": no draw
            fires, total = fires[valid], total[valid]
            if not len(fires):
                continue
            streams = sub[fires]
            uses_cer = not fighter
            if uses_cer and self.early:
                natural = batch.cer_rolls[streams, u].copy()
            elif uses_cer:
                natural = self.first_face + below(batch.seeds, streams, np.full(len(fires), 10))
            r = below(batch.seeds, streams, total)
            chosen = np.argmax(np.cumsum(w[fires], axis=1) > r[:, None], axis=1)
            # 7.1.4 the morale auto-critical (E52), 7.4 a critical against a starbase re-rolled
            due = ~batch.auto_used[streams, g] & batch.auto_due[streams, g] & self.auto_kind[u]
            on_base = self.starbase[chosen]
            allowed = on_base & (every | ~((batch.rerolled[streams] >> chosen) & 1).astype(bool))
            auto_rerolled = due & allowed & auto_reroll
            if uses_cer:
                reroll = ((natural == cer.NATURAL_CRITICAL) | auto_rerolled) & allowed
            else:
                reroll = auto_rerolled
            again = np.nonzero(reroll)[0]
            if len(again):
                batch.rerolled[streams[again]] |= np.left_shift(1, chosen[again])
                spent = again[auto_rerolled[again]]
                batch.auto_used[streams[spent], g] = True
                face = self.first_face + below(batch.seeds, streams[again], np.full(len(again), 10))
                if uses_cer:
                    natural[again] = face
                    due = (
                        ~batch.auto_used[streams, g]
                        & batch.auto_due[streams, g]
                        & self.auto_kind[u]
                    )
            if uses_cer:
                bonus = batch.modifier[streams, u] + scouts[fires, g] + bonus_step[fires]
                modified = np.clip(natural + bonus + self.offset, 0, 59)
                hit = self.hits[u, weak[fires, u].astype(np.int64), modified]
                crit = (natural == cer.NATURAL_CRITICAL) | due
            else:
                hit = np.full(len(fires), self.attack[u], dtype=np.int64)
                crit = due.copy()
                if len(again):
                    # E60: the fighter's re-rolled auto-critical: a critical on a natural 9
                    crit[again] = face == cer.NATURAL_CRITICAL
                    due[again] = False
            batch.auto_used[streams[due], g] = True
            target[fires, j] = chosen
            hits[fires, j] = hit
            critical[fires, j] = crit
            batch.engaging[streams] |= np.left_shift(1, g * h + self.house[chosen])
        self._damage(batch, sub, c, target, hits, critical)

    def _has_scouts(self, batch: Batch, sub: I64, alive: B) -> B:
        """[trial, house]: ``cer.has_scouts`` (7.3.3 Scouts +1, "Maximum benefit for all
        Scouts in Task Force"): a joined fleet with scouts that did not leave, with a unit
        still fighting (or none at all); none once its screened ships were lost (7.2)."""
        h = self.n_houses
        if not self.fleet_scouts.any():
            return np.zeros((len(sub), h), dtype=np.bool_)
        fights = (alive[:, None, :] & self.fleet_units[None, :, :]).any(axis=2)
        ok = batch.joined[sub] & self.fleet_scouts & ~self._scouts_gone(batch, sub)
        ok &= self.fleet_empty | fights
        lost = ((batch.screened_lost[sub][:, None] >> np.arange(h)) & 1) == 1
        found: B = ((ok.astype(np.int64) @ self.fleet_matrix) > 0) & ~lost
        return found

    def _pool(self, alive: B, crippled: B, hostile: B, fighter: bool) -> I64:
        """Each trial's target weights (7.3.2.4 candidates, 7.3.2.5 weights; 0: not one)."""
        pool: B = alive & hostile
        if fighter:  # 7.3.2.3
            fighters: B = pool & self.fighter
            some: B = np.asarray(fighters.any(axis=1))
            pool = np.where(some[:, None], fighters, pool)
        lowest = np.where(pool, self.bucket, 1 << 20).min(axis=1)
        chosen = pool & (self.bucket == lowest[:, None])
        return np.where(chosen, self.weight * (1 + crippled), 0).astype(np.int64)

    def _damage(
        self, batch: Batch, sub: I64, before: I64, target: I64, hits: I64, critical: B
    ) -> None:
        """``damage.apply_damage`` (7.3.3 restrictions 1–3) and ``damage.force_reduction``."""
        options = self.setup.options
        k, m = target.shape
        n = self.n_units
        total = np.zeros((k, n), dtype=np.int64)
        crit_hits = np.zeros((k, n), dtype=np.int64)
        any_crit = np.zeros((k, n), dtype=np.bool_)
        hit = np.zeros((k, n), dtype=np.bool_)
        for j in range(m):
            rows = np.nonzero(target[:, j] >= 0)[0]
            if not len(rows):
                continue
            t = target[rows, j]
            total[rows, t] += hits[rows, j]
            hit[rows, t] = True
            cr = critical[rows, j]
            crit_hits[rows[cr], t[cr]] += hits[rows[cr], j]
            any_crit[rows[cr], t[cr]] = True
        if not hit.any():
            return
        memory = options.damage_memory != "none"
        if memory:
            total = total + np.where(hit, batch.damage[sub], 0)
        d = self.defense
        reached = hit & (total >= d)
        # restriction 1: reduced one step
        first = np.where(reached & (before == UNDAMAGED) & ~self.fighter, CRIPPLED, before)
        basis = first if options.protection_judged == "after_step" else before
        # restriction 2: destruction protection (squadrons only)
        counting = self.protection_counts & (basis == UNDAMAGED)
        per_house = counting.astype(np.int64) @ self.house_matrix  # [k, h]
        protected = self.squadron & (per_house[:, self.house] - counting > 0)
        if options.overkill_all_means == "all":
            protected |= self.squadron & (basis == UNDAMAGED)
        twice = options.undamaged_destroyed_at == "twice_ds"
        threshold = np.where(before == UNDAMAGED, 2 * d, d)
        candidate = reached & ~self.fighter & ((before == CRIPPLED) | (twice & (total >= 2 * d)))
        if options.critical_bypass == "target":
            bypass = any_crit
        else:
            bypass = any_crit & (crit_hits >= threshold)
        destroy = candidate & (~protected | bypass)
        after = np.where(destroy | (reached & self.fighter), DESTROYED, first)
        kept = batch.damage[sub]
        if memory:
            kept = np.where(hit, np.where(reached, 0, total), kept)
        # force reduction is due for a critical that could not reduce its target (E29)
        tgt = np.maximum(target, 0)
        if options.force_reduction_judged == "combined_hits":
            force = critical & (target >= 0) & ~reached[np.arange(k)[:, None], tgt]
        else:
            force = critical & (target >= 0) & (hits < d[tgt])
        for j in range(m):
            rows = np.nonzero(force[:, j])[0]
            if not len(rows):
                continue
            now = after[rows]
            pool = (now == UNDAMAGED) | (now == CRIPPLED)
            pool &= self.reducible & self.house_mask[self.house[target[rows, j]]]
            has = pool.any(axis=1)
            rows, pool, now = rows[has], pool[has], now[has]
            if not len(rows):
                continue
            lowest = np.where(pool, d, 1 << 40).min(axis=1)
            tied = pool & (d == lowest[:, None])
            count = tied.sum(axis=1)
            index = np.zeros(len(rows), dtype=np.int64)
            if options.force_reduction_tie == "draw":
                many = np.nonzero(count > 1)[0]
                if len(many):
                    index[many] = below(batch.seeds, sub[rows[many]], count[many])
            unit = np.argmax(np.cumsum(tied, axis=1) > index[:, None], axis=1)
            old = now[np.arange(len(rows)), unit]
            after[rows, unit] = np.where(
                (old == CRIPPLED) | self.fighter[unit], DESTROYED, CRIPPLED
            )
            if memory:
                kept[rows, unit] = 0
        batch.cond[sub] = after.astype(np.int8)
        if memory:
            batch.damage[sub] = kept
