"""Monte Carlo odds: many battles played by the rules themselves, over the machine's cores.

Trial k is played with dice seeded from ``(seed, k)``, so the result does not depend on how
many processes share the work. Intervals are 95% Wilson score intervals.

Trials are played by a ``Sampler`` (core/engine.py): the battle ``play`` would give with the
same dice, without the log, walking the rules once for each point and outcome of the dice it
meets. The first batch is played in this process; the rest too, unless it would take longer
than ``POOL_AFTER``: then on a pool of workers, forked with what the first batch learnt, each
keeping its sampler from batch to batch. Tallies are merged in the order of their trials, so
the figures do not depend on timing or on the number of workers.

An EC4X battle's trials are played by EC4X's kernel where it compiles for the battle
(``rulesets/ec4x/space_combat/kernel.py``: a batch's rounds side by side over arrays, the same
draws and ends as the sampler's, trial for trial); where it refuses (``KernelRefusal``), by the
sampler. Either way the tally is made from the trials' ends in the same order.

Work goes out in batches made as they are needed (a few per worker in flight, never a list
sized by the trials). The workers (``analysis/workers.py``) leave Ctrl-C to the parent: on
KeyboardInterrupt, or any other exception, the parent stops them at once and re-raises; each
worker also exits if the parent dies.
"""

from __future__ import annotations

import gc
import json
import math
import sys
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from spacecombat import rulesets
from spacecombat.analysis.graph import Terminal, Weight
from spacecombat.analysis.report import OddsReport, Place, summarise
from spacecombat.analysis.tactical_report import summarise_tactical
from spacecombat.analysis.workers import forking, may_start, stop
from spacecombat.analysis.workers import pool as workers_pool
from spacecombat.core.dice import SplitMixDice
from spacecombat.core.engine import Point, Sampler
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import (
    MAX_PRECISION,
    MAX_TRIALS,
    MIN_PRECISION,
    cores,
    max_workers,
    shown,
)
from spacecombat.rulesets import is_scenario, parse_scenario
from spacecombat.rulesets.tactical import TacticalBattle
from spacecombat.scenario.schema import AnyScenario

if TYPE_CHECKING:
    # the pool is imported where it is started: exact odds check their options here too
    from concurrent.futures import Future

Z95 = 1.959963984540054


def trial_seed(seed: int, trial: int) -> int:
    """The dice seed of one trial."""
    return (seed << 32) ^ trial


#: the stages of a tactical action whose rounds a tally counts apart
STAGES = ("space", "ground")


@dataclass
class Tally:
    """Counts from a batch of trials."""

    trials: int = 0
    ends: dict[Any, tuple[Mapping[str, object], int]] = field(default_factory=dict)
    rounds: dict[int, int] = field(default_factory=dict)
    #: a tactical action's rounds of each stage (``space``, ``ground``: its outcome's
    #: ``space_rounds`` and ``ground_rounds``)
    stages: dict[str, dict[int, int]] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        self.trials += other.trials
        for key, (outcome, count) in other.ends.items():
            self.ends[key] = (outcome, self.ends.get(key, (outcome, 0))[1] + count)
        for r, count in other.rounds.items():
            self.rounds[r] = self.rounds.get(r, 0) + count
        for stage, counts in other.stages.items():
            mine = self.stages.setdefault(stage, {})
            for r, count in counts.items():
                mine[r] = mine.get(r, 0) + count


def run_trials(scenario_json: dict[str, Any], seed: int, first: int, count: int) -> Tally:
    """Play trials ``first .. first + count - 1`` (in a worker process, which keeps the battle
    and what its sampler learnt for the next batch of the same scenario)."""
    global _KEPT
    key = _key(scenario_json)
    if _KEPT is None or _KEPT[0] != key:
        _KEPT = None  # the old sampler's memory goes before the new one fills
        scenario = parse_scenario(scenario_json)
        _KEPT = (key, Trials(scenario))
    return _KEPT[1].run(seed, first, count)


class Trials:
    """Trials of one scenario: its battle, its stock policies and a ``Sampler`` shared by
    every batch (each trial still reads its own dice, seeded from ``(seed, trial)``)."""

    def __init__(self, scenario: AnyScenario, battle: rulesets.Battle | None = None) -> None:
        self.scenario = scenario
        self.battle = battle if battle is not None else rulesets.battle(scenario)
        self.sampler: Sampler[Any] = Sampler(self.battle, self.battle.stock_policies())
        #: EC4X's kernel for this battle (``rulesets/ec4x/space_combat/kernel.py``): its
        #: rounds played for a batch of trials side by side, the same draws and ends as the
        #: sampler's; ``None``: the sampler plays every trial
        self.kernel = kernel_for(self.battle, scenario)

    def run(self, seed: int, first: int, count: int) -> Tally:
        """Play trials ``first .. first + count - 1``."""
        if self.kernel is not None:
            return self._run_kernel(self.kernel, seed, first, count)
        scenario, play = self.scenario, self.sampler.play
        # how often each end was reached, in the order first reached (the order of the ends
        # in the tally, as when each trial was tallied as it ended)
        reached: dict[Point[Any], int] = {}
        # No garbage collection during the batch: the collector's passes over the sampler's
        # memory (every generation fills with it) cost a third of the time, and the battles
        # make no reference cycles (none was found in any ruleset's; any would be collected
        # after the batch). It is switched back on at once after (or on an exception).
        collecting = gc.isenabled()
        gc.disable()
        try:
            for trial in range(first, first + count):
                end = play(rulesets.dice_for(scenario, trial_seed(seed, trial)))
                reached[end] = reached.get(end, 0) + 1
        finally:
            if collecting:
                gc.enable()
        found: list[tuple[Any, Mapping[str, object], int]] = []
        for end, times in reached.items():
            assert end.outcome is not None
            found.append((end.state, end.outcome, times))
        return self._tally(found, count)

    def _run_kernel(self, kernel: Any, seed: int, first: int, count: int) -> Tally:
        """The trials played by the kernel, side by side (the same ends as ``run``'s)."""
        scenario = self.scenario
        seeds = []
        for trial in range(first, first + count):
            dice = rulesets.dice_for(scenario, trial_seed(seed, trial))
            assert isinstance(dice, SplitMixDice)
            seeds.append(dice.seed)
        collecting = gc.isenabled()
        gc.disable()
        try:
            ends = kernel.play(seeds)
        finally:
            if collecting:
                gc.enable()
        # how often each end was reached, in the order first reached (as ``run`` counts them)
        reached: dict[Any, tuple[Mapping[str, object], int]] = {}
        for state, outcome in ends:
            kept, times = reached.get(state, (outcome, 0))
            reached[state] = (kept, times + 1)
        return self._tally([(s, o, n) for s, (o, n) in reached.items()], count)

    def _tally(self, found: list[tuple[Any, Mapping[str, object], int]], count: int) -> Tally:
        """The tally of ``count`` trials from their ends (state, outcome, times reached), in
        the order first reached."""
        tally = Tally(trials=count)
        for state, outcome, times in found:
            key = self.battle.end_key(state)
            # the outcome of the first trial to reach the key (ends of different round
            # numbers share it)
            kept, seen = tally.ends.get(key, (outcome, 0))
            tally.ends[key] = (kept, seen + times)
            rounds = int(str(outcome.get("rounds", 0)))
            tally.rounds[rounds] = tally.rounds.get(rounds, 0) + times
            for stage in STAGES:
                if f"{stage}_rounds" in outcome:
                    counts = tally.stages.setdefault(stage, {})
                    r = int(str(outcome[f"{stage}_rounds"]))
                    counts[r] = counts.get(r, 0) + times
        return tally


def kernel_for(battle: rulesets.Battle, scenario: AnyScenario) -> Any:
    """EC4X's Monte Carlo kernel for ``battle`` (``compile_kernel``), or ``None`` where it
    refuses the battle (``KernelRefusal``: the sampler plays it) or for another ruleset."""
    if scenario.ruleset != "ec4x" or not KERNEL:
        return None
    # imported here for start-up time: only an EC4X battle loads EC4X's kernel
    from spacecombat.rulesets.ec4x.battle import Ec4xBattle
    from spacecombat.rulesets.ec4x.space_combat.kernel import KernelRefusal, compile_kernel

    if not isinstance(battle, Ec4xBattle):
        return None
    if not isinstance(rulesets.dice_for(scenario, 0), SplitMixDice):
        return None
    try:
        return compile_kernel(battle)
    except KernelRefusal:
        return None


#: whether EC4X trials may be played by the kernel (tests compare it with the sampler)
KERNEL = True


#: this worker's trials of the scenario it last played (``run_trials``); in the parent, only
#: while the pool's workers are forked (they start with what it learnt in the first batch)
_KEPT: tuple[str, Trials] | None = None


def _key(scenario_json: dict[str, Any]) -> str:
    return json.dumps(scenario_json, sort_keys=True)


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denom
    # a proportion never seen (or always seen) starts (ends) its interval exactly, whatever
    # the floating-point rounding of the formula
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


#: the largest seed (the command line's ``--seed`` allows the same)
MAX_SEED = 2**64 - 1
#: batches in flight per worker (enough to keep every worker busy)
IN_FLIGHT = 2
#: the seconds of trials worth starting the pool for (it costs about 0.1 s to start, and its
#: workers learn what the first batch did not)
POOL_AFTER = 0.5


#: the half-width of every headline probability's 95% interval at which Monte Carlo stops by
#: default: ±0.5 percentage points (docs/protocol.md, "Monte Carlo's stopping rule")
PRECISION = 0.005
#: the least and the most ``precision`` that may be asked for (0: play exactly ``trials``)
PRECISION_RANGE = (MIN_PRECISION, MAX_PRECISION)
#: Monte Carlo's trials when none are asked for and the precision is 0 (a fixed number)
FIXED_TRIALS = 20_000
#: the trials played before the stopping rule is first read (a proportion seen 0 times in 400
#: trials already has an interval narrower than ±0.5 points)
MIN_TRIALS = 1_000
#: the most trials between two readings of the stopping rule; fewer when the cap is small
#: (``CHECKS`` readings up to it)
CHECK_EVERY = 1_000
CHECKS = 8

#: a callback told, as trials are done, how many are done, how many at most, and the widest
#: half-width of a headline probability's 95% interval so far (``None``: not read yet, or a
#: fixed number of trials)
Progress = Callable[[int, int, float | None], None]


def needed_trials(precision: float) -> int:
    """The trials that bring every proportion's 95% interval within ``precision`` of it,
    whatever the proportion: the normal interval's half-width is widest at one half,
    ``Z95 * sqrt(1/4 / n)``, and the Wilson interval's is narrower (the default cap of the
    stopping rule; 38,415 at ±0.5 points)."""
    return math.ceil(Z95**2 / (4 * precision**2))


def check_options(
    trials: object, seed: object, workers: object, precision: object = PRECISION
) -> None:
    """``ScenarioError`` naming the option unless ``trials`` is ``None`` or a whole number from
    1 to ``MAX_TRIALS``, ``seed`` one from 0 to ``MAX_SEED``, ``workers`` ``None`` or one from
    1 to ``max_workers()``, and ``precision`` 0 or a number in ``PRECISION_RANGE`` (the
    command line checks the same; this is for library callers)."""
    for name, value, low, high in (
        ("trials", trials, 1, MAX_TRIALS),
        ("seed", seed, 0, MAX_SEED),
        ("workers", workers, 1, max_workers()),
    ):
        if name in ("workers", "trials") and value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ScenarioError(
                name, f"must be a whole number from {low} to {high:,} (got {shown(value)})"
            )
    check_precision(precision)


def check_precision(precision: object) -> None:
    """``precision`` must be 0 (a fixed number of trials) or a number in ``PRECISION_RANGE``."""
    low, high = PRECISION_RANGE
    if (
        isinstance(precision, bool)
        or not isinstance(precision, (int, float))
        or not (precision == 0 or low <= precision <= high)
    ):
        raise ScenarioError(
            "precision",
            f"must be 0 (play exactly the trials asked for) or a number from {low} to {high} "
            f"(got {shown(precision)})",
        )


def batches(trials: int, size: int) -> Iterator[tuple[int, int]]:
    """``(first trial, count)`` of each batch, made as they are asked for."""
    for first in range(0, trials, size):
        yield first, min(size, trials - first)


def half_width(successes: int, trials: int) -> float:
    """Half the width of the 95% Wilson interval of ``successes`` in ``trials``."""
    low, high = wilson(successes, trials)
    return (high - low) / 2


@dataclass
class Stopping:
    """Monte Carlo's stopping rule (docs/protocol.md): read after each batch merged in the
    order of its trials, it stops once at least ``MIN_TRIALS`` are played and every headline
    probability's 95% Wilson interval (``OddsReport.headlines``) is within ``precision``
    (half-width) of it. Batches are cut by trial counts alone, so where it stops depends on the
    seed, the cap and the precision, never on the workers or on timing. ``precision`` 0: never
    before the cap."""

    battle: rulesets.Battle
    precision: float
    trials: int = 0
    #: how many trials reached each headline (``OddsReport.headlines``)
    counts: dict[Place, int] = field(default_factory=dict)
    #: the widest half-width when last read (``None``: not read yet)
    widest: float | None = None
    #: the headlines each end (by its key) counts for: each is 1 or 0 at one end (a result, a
    #: holder, a planet taken or not, a house's fate), found once from the report of that end
    #: alone, whose other accounts (survivors, losses) cost more than the headlines
    known: dict[Hashable, tuple[tuple[Place, int], ...]] = field(default_factory=dict)

    def add(self, tally: Tally) -> None:
        """A batch's trials, the next in order."""
        self.trials += tally.trials
        if not self.precision:
            return
        counts = self.counts
        for key, (outcome, count) in tally.ends.items():
            places = self.known.get(key)
            if places is None:
                alone = _summary(self.battle, {Terminal(key, outcome): 1.0}, {}, {}, 0.0)
                places = ()
                for place, chance in alone.headlines().items():
                    counts.setdefault(place, 0)  # a headline never reached counts too
                    if chance:
                        places += ((place, round(float(chance))),)
                self.known[key] = places
            for place, times in places:
                counts[place] += times * count
        if self.trials >= MIN_TRIALS:
            self.widest = max(
                (half_width(c, self.trials) for c in counts.values()),
                default=0.0,
            )

    def enough(self) -> bool:
        """Whether every headline is known within the precision."""
        return self.widest is not None and self.widest <= self.precision


def _summary(
    battle: rulesets.Battle,
    ends: Mapping[Terminal, Weight],
    by_round: Mapping[int, float],
    stages: Mapping[str, Mapping[int, float]],
    residual: Weight,
) -> OddsReport:
    if isinstance(battle, TacticalBattle):
        return summarise_tactical(
            battle, ends, residual, by_round, 0.0, method="montecarlo", stages=stages
        )
    return summarise(battle, ends, residual, by_round, 0.0, method="montecarlo")


def monte_carlo(
    scenario: AnyScenario | Mapping[str, Any],
    *,
    trials: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    precision: float = PRECISION,
    progress: Progress | None = None,
    deadline: float | None = None,
) -> OddsReport:
    """Odds from battles played by the resolver, on ``workers`` processes (default: the cores
    this process may use), until every headline probability's 95% interval is within
    ``precision`` of it (``Stopping``), at most ``trials`` (default: ``needed_trials``, enough
    at any probability); ``precision=0``: exactly ``trials`` (default ``FIXED_TRIALS``).
    ``progress(done, most, widest)``: told as batches are done. ``deadline`` (a
    ``time.monotonic()`` reading; the server's time limit, issue 25): no batch is started after
    it, and the trials played by then are the report (``report.trials`` says how many; with a
    precision, ``precision.reached`` whether it got there)."""
    check_options(trials, seed, workers, precision)
    if trials is None:
        trials = min(MAX_TRIALS, needed_trials(precision)) if precision else FIXED_TRIALS
    if not is_scenario(scenario):
        scenario = parse_scenario(scenario)
    if scenario.ruleset == "ec4x":
        # a game turn's battle may pass 200 units a house (MAX_GAME_BATTLE_UNITS): the odds
        # engines take a battle scenario's limit only (docs/limits.md)
        # imported here for start-up time: only an EC4X battle loads EC4X's scenario
        from spacecombat.scenario.ec4x import Ec4xScenario, check_house_units

        if isinstance(scenario, Ec4xScenario):
            check_house_units(scenario)
    battle = rulesets.battle(scenario)  # checks the scenario before any worker starts
    data = scenario.model_dump(mode="json", exclude_none=True)
    workers = workers or cores()
    if precision:
        # where the rule is read depends on the cap alone, never on the workers
        chunk = max(1, min(CHECK_EVERY, math.ceil(trials / CHECKS)))
    else:
        chunk = max(1, min(2_000, math.ceil(trials / (workers * 4))))
    total = Tally()
    rule = Stopping(battle, precision)
    # The first batch is played here. The rest too, unless it would take more than POOL_AFTER
    # seconds at the first batch's pace: then on the pool, whose workers (forked) start with
    # what this process's sampler learnt. Either way the tallies are merged in the order of
    # their trials, so the figures are the same.
    here = Trials(scenario, battle)
    todo = batches(trials, chunk)
    first, count = next(todo)
    started = time.perf_counter()
    tally = here.run(seed, first, count)
    total.merge(tally)
    rule.add(tally)
    pace = (time.perf_counter() - started) / count
    rest = trials - count
    if rule.enough():
        pass
    elif workers > 1 and rest > 0 and pace * rest > POOL_AFTER and may_start():
        pool = min(workers, math.ceil(rest / chunk))
        _in_pool(data, here, seed, trials, todo, pool, total, rule, progress, deadline)
    else:
        if progress:
            progress(total.trials, trials, rule.widest)
        for first, count in todo:
            if _past(deadline):
                break
            tally = here.run(seed, first, count)
            total.merge(tally)
            rule.add(tally)
            if rule.enough():
                break
            if progress:
                progress(total.trials, trials, rule.widest)
    if progress:
        # the last word: the trials played, all of them done
        progress(total.trials, total.trials, rule.widest)
    report = _report(battle, total)
    if precision:
        widest = max(
            (
                half_width(round(float(c) * total.trials), total.trials)
                for c in report.headlines().values()
            ),
            default=0.0,
        )
        report.precision = {
            "target": precision,
            "widest": round(widest, 6),
            "reached": rule.enough(),
        }
    return report


def _past(deadline: float | None) -> bool:
    """Whether ``deadline`` (a ``time.monotonic()`` reading, or ``None``: none) has come."""
    return deadline is not None and time.monotonic() >= deadline


def _report(battle: rulesets.Battle, total: Tally) -> OddsReport:
    """The report of the trials of ``total``: each probability a count of trials divided once
    by the trials (exact fractions, then floats), so none leaves [0, 1] and the results add up
    to 1 (summed floats did not: a chance of 1 was printed as 1.000000000000001)."""
    n = total.trials
    ends: dict[Terminal, Weight] = {
        Terminal(key, outcome): Fraction(count, n) for key, (outcome, count) in total.ends.items()
    }
    by_round = {r: c / n for r, c in sorted(total.rounds.items())}
    stages = {
        stage: {r: c / n for r, c in sorted(counts.items())}
        for stage, counts in total.stages.items()
    }
    report = _summary(battle, ends, by_round, stages, Fraction(0))
    report.trials = n
    found = report.headlines()
    confidence: dict[str, Any] = {}
    for path, chance in found.items():
        # the chance is a whole number of trials over ``n``
        interval = list(wilson(round(chance * n), n))
        if len(path) == 1:
            confidence[path[0]] = interval
        else:
            confidence.setdefault(path[0], {})[path[1]] = interval
    report.confidence = confidence
    _to_floats(report)
    report.notices = list(battle.notices())
    return report


def _to_floats(report: OddsReport) -> None:
    """The report's exact fractions (counts over trials) as the floats nearest to them."""
    report.attacker_win = float(report.attacker_win)
    report.defender_win = float(report.defender_win)
    report.draw = float(report.draw)
    report.residual = float(report.residual)
    report.other = {name: float(chance) for name, chance in report.other.items()}
    if report.holds is not None:
        report.holds = {name: float(chance) for name, chance in report.holds.items()}
    if report.taken is not None:
        report.taken = {name: float(chance) for name, chance in report.taken.items()}


def _in_pool(
    data: dict[str, Any],
    here: Trials,
    seed: int,
    trials: int,
    todo: Iterator[tuple[int, int]],
    workers: int,
    total: Tally,
    rule: Stopping,
    progress: Progress | None,
    deadline: float | None = None,
) -> None:
    """The batches of ``todo`` (the trials after ``total``'s) on a pool of ``workers``
    processes, at most ``IN_FLIGHT`` per worker queued at a time, until ``rule`` has enough; on
    any exception (KeyboardInterrupt included), or once ``rule`` has enough, the workers are
    stopped at once (batches still in flight are not wanted). Forked workers start with
    ``here`` (its sampler's memory). Tallies are merged, and ``rule`` read, in the order of
    their trials, whichever batch is done first: the order of the ends is the order the report
    sums them in, so the figures depend neither on timing nor on the number of workers (a
    ``deadline`` aside: no batch is sent after it)."""
    global _KEPT
    # imported here for start-up time: exact odds and one-worker runs never need it
    from concurrent.futures import FIRST_COMPLETED, wait

    pool = workers_pool(workers)
    pending: set[Future[Tally]] = set()
    firsts: dict[Future[Tally], int] = {}
    waiting: dict[int, Tally] = {}  # done, not merged yet: by first trial
    merged = done_trials = total.trials  # trials merged; trials done
    told = False
    try:
        while not rule.enough():
            for first, count in todo if not _past(deadline) else ():
                if not told:  # the workers are forked at the first submission
                    _KEPT = (_key(data), here)
                    try:
                        with forking():
                            future = pool.submit(run_trials, data, seed, first, count)
                    finally:
                        _KEPT = None
                else:
                    future = pool.submit(run_trials, data, seed, first, count)
                firsts[future] = first
                pending.add(future)
                if len(pending) >= IN_FLIGHT * workers:
                    break
            if not told:  # the batch played here, once the workers run
                told = True
                if progress:
                    progress(done_trials, trials, rule.widest)
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                tally = future.result()
                waiting[firsts.pop(future)] = tally
                done_trials += tally.trials
            while merged in waiting and not rule.enough():
                tally = waiting.pop(merged)
                total.merge(tally)
                rule.add(tally)
                merged += tally.trials
            if progress and not rule.enough():
                progress(done_trials, trials, rule.widest)
    except BaseException:
        stop(pool, pending)
        raise
    if pending:
        stop(pool, pending)  # the rule has enough: what is still being played is not wanted
    else:
        pool.shutdown()


@dataclass(frozen=True)
class TerminalProgress:
    """A one-line progress bar on standard error: the trials done of the most to play and,
    once the stopping rule is read, the widest headline interval against ``target``."""

    target: float = PRECISION

    def __call__(self, done: int, total: int, widest: float | None = None) -> None:
        width = 30
        filled = width * done // total if total else width
        line = f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} trials"
        if widest is not None:
            line += f", ±{100 * widest:.2f} points"
            if self.target:
                line += f" (target ±{100 * self.target:.2f})"
        sys.stderr.write(line + "\033[K")  # (erasing what a longer line left)
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


terminal_progress = TerminalProgress()
