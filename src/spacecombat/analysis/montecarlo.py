"""Monte Carlo odds: many battles played by the rules themselves, over the machine's cores.

Trial k is played with dice seeded from ``(seed, k)``, so the result does not depend on how
many processes share the work. Intervals are 95% Wilson score intervals.

Trials are played by a ``Sampler`` (core/engine.py): the battle ``play`` would give with the
same dice, without the log, walking the rules once for each point and outcome of the dice it
meets. The first batch is played in this process; the rest too, unless it would take longer
than ``POOL_AFTER``: then on a pool of workers, forked with what the first batch learnt, each
keeping its sampler from batch to batch. Tallies are merged in the order of their trials, so
the figures do not depend on timing or on the number of workers.

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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from spacecombat import rulesets
from spacecombat.analysis.graph import Terminal, Weight
from spacecombat.analysis.report import FATES, OddsReport, summarise
from spacecombat.analysis.tactical_report import summarise_tactical
from spacecombat.analysis.workers import forking, may_start, stop
from spacecombat.analysis.workers import pool as workers_pool
from spacecombat.core.engine import Point, Sampler
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_TRIALS, cores, max_workers, shown
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

    def run(self, seed: int, first: int, count: int) -> Tally:
        """Play trials ``first .. first + count - 1``."""
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
        tally = Tally(trials=count)
        for end, times in reached.items():
            outcome = end.outcome
            assert outcome is not None
            key = self.battle.end_key(end.state)
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


def check_options(trials: object, seed: object, workers: object) -> None:
    """``ScenarioError`` naming the option unless ``trials`` is a whole number from 1 to
    ``MAX_TRIALS``, ``seed`` one from 0 to ``MAX_SEED``, and ``workers`` ``None`` or one from 1
    to ``max_workers()`` (the command line checks the same; this is for library callers)."""
    for name, value, low, high in (
        ("trials", trials, 1, MAX_TRIALS),
        ("seed", seed, 0, MAX_SEED),
        ("workers", workers, 1, max_workers()),
    ):
        if name == "workers" and value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ScenarioError(
                name, f"must be a whole number from {low} to {high:,} (got {shown(value)})"
            )


def batches(trials: int, size: int) -> Iterator[tuple[int, int]]:
    """``(first trial, count)`` of each batch, made as they are asked for."""
    for first in range(0, trials, size):
        yield first, min(size, trials - first)


def monte_carlo(
    scenario: AnyScenario | Mapping[str, Any],
    *,
    trials: int = 20_000,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    """Odds from ``trials`` battles played by the resolver, on ``workers`` processes (default:
    the cores this process may use)."""
    check_options(trials, seed, workers)
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
    chunk = max(1, min(2_000, math.ceil(trials / (workers * 4))))
    total = Tally()
    # The first batch is played here. The rest too, unless it would take more than POOL_AFTER
    # seconds at the first batch's pace: then on the pool, whose workers (forked) start with
    # what this process's sampler learnt. Either way the tallies are merged in the order of
    # their trials, so the figures are the same.
    here = Trials(scenario, battle)
    todo = batches(trials, chunk)
    first, count = next(todo)
    started = time.perf_counter()
    total.merge(here.run(seed, first, count))
    pace = (time.perf_counter() - started) / count
    rest = trials - count
    if workers > 1 and rest > 0 and pace * rest > POOL_AFTER and may_start():
        pool = min(workers, math.ceil(rest / chunk))
        _in_pool(data, here, seed, trials, todo, pool, total, progress)
    else:
        if progress:
            progress(total.trials, trials)
        for first, count in todo:
            total.merge(here.run(seed, first, count))
            if progress:
                progress(total.trials, trials)
    ends: dict[Terminal, Weight] = {
        Terminal(key, outcome): count / total.trials for key, (outcome, count) in total.ends.items()
    }
    by_round = {r: c / total.trials for r, c in sorted(total.rounds.items())}
    if isinstance(battle, TacticalBattle):
        stages = {
            stage: {r: c / total.trials for r, c in sorted(counts.items())}
            for stage, counts in total.stages.items()
        }
        report = summarise_tactical(
            battle, ends, 0.0, by_round, 0.0, method="montecarlo", stages=stages
        )
    else:
        report = summarise(battle, ends, 0.0, by_round, 0.0, method="montecarlo")
    report.trials = total.trials

    def interval(chance: float) -> list[float]:
        return list(wilson(round(chance * total.trials), total.trials))

    if report.houses is None:
        report.confidence = {
            name: interval(float(getattr(report, name)))
            for name in ("attacker_win", "defender_win", "draw")
        }
        for name, chance in report.other.items():
            report.confidence[name] = interval(float(chance))
        for shares, key in ((report.holds, "holds"), (report.taken, "taken")):
            if shares is not None:
                report.confidence[key] = {
                    name: interval(float(chance)) for name, chance in shares.items()
                }
    else:
        # a house's name may also be a result (it holds the system): results apart
        report.confidence = {
            house: {fate: interval(facts[fate]) for fate in FATES}
            for house, facts in report.houses.items()
        }
        report.confidence["results"] = {
            name: interval(float(chance)) for name, chance in report.other.items()
        }
        if report.colony is not None:
            report.confidence["colony"] = {
                "falls": interval(report.colony["falls"]),
                "seized": interval(report.colony["seized"]),
            }
    report.notices = list(battle.notices())
    return report


def _in_pool(
    data: dict[str, Any],
    here: Trials,
    seed: int,
    trials: int,
    todo: Iterator[tuple[int, int]],
    workers: int,
    total: Tally,
    progress: Callable[[int, int], None] | None,
) -> None:
    """The batches of ``todo`` (the trials after ``total``'s) on a pool of ``workers``
    processes, at most ``IN_FLIGHT`` per worker queued at a time; on any exception
    (KeyboardInterrupt included) the workers are stopped at once. Forked workers start with
    ``here`` (its sampler's memory). Tallies are merged in the order of their trials, whichever
    batch is done first: the order of the ends is the order the report sums them in, so the
    figures depend neither on timing nor on the number of workers."""
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
        while True:
            for first, count in todo:
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
                    progress(done_trials, trials)
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                tally = future.result()
                waiting[firsts.pop(future)] = tally
                done_trials += tally.trials
                if progress:
                    progress(done_trials, trials)
            while merged in waiting:
                tally = waiting.pop(merged)
                total.merge(tally)
                merged += tally.trials
    except BaseException:
        stop(pool, pending)
        raise
    pool.shutdown()


def terminal_progress(done: int, total: int) -> None:
    """A one-line progress bar on standard error."""
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} trials")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()
