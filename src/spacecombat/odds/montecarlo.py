"""Monte Carlo odds: many battles played by the resolver itself, over the machine's cores.

Trial k is played with dice seeded from ``(seed, k)``, so the result does not depend on how
many processes share the work. Intervals are 95% Wilson score intervals.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from spacecombat import rulesets
from spacecombat.core.dice import SeededDice
from spacecombat.core.engine import play
from spacecombat.odds.graph import Terminal, Weight
from spacecombat.odds.report import OddsReport, summarise
from spacecombat.scenario.schema import Scenario, parse_scenario

Z95 = 1.959963984540054


def trial_seed(seed: int, trial: int) -> int:
    """The dice seed of one trial."""
    return (seed << 32) ^ trial


@dataclass
class Tally:
    """Counts from a batch of trials."""

    trials: int = 0
    ends: dict[Any, tuple[Mapping[str, object], int]] = field(default_factory=dict)
    rounds: dict[int, int] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        self.trials += other.trials
        for key, (outcome, count) in other.ends.items():
            self.ends[key] = (outcome, self.ends.get(key, (outcome, 0))[1] + count)
        for r, count in other.rounds.items():
            self.rounds[r] = self.rounds.get(r, 0) + count


def run_trials(scenario_json: dict[str, Any], seed: int, first: int, count: int) -> Tally:
    """Play trials ``first .. first + count - 1`` (in a worker process)."""
    battle = rulesets.battle(parse_scenario(scenario_json))
    policies = battle.stock_policies()
    tally = Tally()
    for trial in range(first, first + count):
        played = play(battle, SeededDice(trial_seed(seed, trial)), policies)
        key = battle.end_key(played.state)
        outcome, seen = tally.ends.get(key, (played.outcome, 0))
        tally.ends[key] = (outcome, seen + 1)
        rounds = int(str(played.outcome.get("rounds", 0)))
        tally.rounds[rounds] = tally.rounds.get(rounds, 0) + 1
        tally.trials += 1
    return tally


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def monte_carlo(
    scenario: Scenario | Mapping[str, Any],
    *,
    trials: int = 20_000,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    """Odds from ``trials`` battles played by the resolver, on ``workers`` processes (default:
    the machine's cores)."""
    if not isinstance(scenario, Scenario):
        scenario = parse_scenario(scenario)
    if trials < 1:
        raise ValueError("trials must be at least 1")
    battle = rulesets.battle(scenario)  # checks the scenario before any worker starts
    data = scenario.model_dump(mode="json", exclude_none=True)
    workers = max(1, workers or os.cpu_count() or 1)
    chunk = max(1, min(2_000, math.ceil(trials / (workers * 4))))
    batches = [(first, min(chunk, trials - first)) for first in range(0, trials, chunk)]
    total = Tally()
    if workers == 1 or len(batches) == 1:
        for first, count in batches:
            total.merge(run_trials(data, seed, first, count))
            if progress:
                progress(total.trials, trials)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run_trials, data, seed, f, c) for f, c in batches]
            for future in as_completed(futures):
                total.merge(future.result())
                if progress:
                    progress(total.trials, trials)
    ends: dict[Terminal, Weight] = {
        Terminal(key, outcome): count / total.trials for key, (outcome, count) in total.ends.items()
    }
    by_round = {r: c / total.trials for r, c in sorted(total.rounds.items())}
    report = summarise(battle, ends, 0.0, by_round, 0.0, method="montecarlo")
    report.trials = total.trials
    report.confidence = {
        name: list(wilson(round(float(getattr(report, name)) * total.trials), total.trials))
        for name in ("attacker_win", "defender_win", "draw")
    }
    for name, chance in report.other.items():
        report.confidence[name] = list(wilson(round(float(chance) * total.trials), total.trials))
    return report


def terminal_progress(done: int, total: int) -> None:
    """A one-line progress bar on standard error."""
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} trials")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()
