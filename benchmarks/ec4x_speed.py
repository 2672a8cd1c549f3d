"""Speed of EC4X space combat (issue 9): resolved battles per second on one core, ten
squadrons a side against ten, no text rendering (the event log is built, as the resolver
builds it, but not written).

Each battle is played by the core's ``play`` with the ruleset's seeded dice (SplitMix64) and
the stock policies, as ``spacecombat resolve`` plays it, from a scenario parsed once. The
battles differ only by their seed. Beside it, in the same runs (issue 24), the same number of
battles played as Monte Carlo plays its trials: ``Trials.run`` on one core (the quiet sampler,
no events; the same draws and ends as ``play``), after a warm-up batch that fills the
sampler's memory, so the ratio of the two is measured under the same load. And (issue 24's
kernel) the same battle's trials as Monte Carlo now plays them: ``Trials.run`` with EC4X's
kernel (``rulesets/ec4x/space_combat/kernel.py``: the rounds of a batch of trials side by
side over numpy arrays, the same draws and ends), ``--kernel-battles`` a run in batches of
``--batch`` (Monte Carlo's batches hold at most 1,000 trials when it stops by precision).
Prints the median of ``--repeats`` runs; results go in docs/benchmarks.md with the machine and
the date.

Run: ``.venv/bin/python benchmarks/ec4x_speed.py [--battles N] [--repeats R]
[--kernel-battles K] [--batch B]``
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

from spacecombat import rulesets
from spacecombat.analysis.montecarlo import Trials
from spacecombat.core.engine import play
from spacecombat.rulesets import parse_scenario

#: ten squadrons a side: capital ships, destroyers and a carrier with fighters
ALPHA = [
    {"flagship": "DN", "escorts": {"CA": 1}},
    {"flagship": "BB", "escorts": {"DD": 1}},
    {"flagship": "BC"},
    {"flagship": "CA", "escorts": {"DD": 1}},
    {"flagship": "CA"},
    {"flagship": "CL", "escorts": {"DD": 1}},
    {"flagship": "CL"},
    {"flagship": "DD", "escorts": {"DD": 1}},
    {"flagship": "DD"},
    {"flagship": "CV", "fighters": 2},
]
BETA = [
    {"flagship": "SD"},
    {"flagship": "BB", "escorts": {"CA": 1}},
    {"flagship": "BC", "escorts": {"DD": 1}},
    {"flagship": "CA", "escorts": {"DD": 1}},
    {"flagship": "CA"},
    {"flagship": "CL", "escorts": {"DD": 1}},
    {"flagship": "CL"},
    {"flagship": "DD", "escorts": {"DD": 1}},
    {"flagship": "DD"},
    {"flagship": "CV", "fighters": 2},
]


def scenario() -> dict[str, Any]:
    """Two houses at war in neutral space, ten squadrons each, fighting to the end."""
    return {
        "ruleset": "ec4x",
        "game_id": "bench",
        "turn": 1,
        "system": {"name": "Bench"},
        "houses": {"alpha": {"prestige": 50}, "beta": {"prestige": 50}},
        "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
        "fleets": [
            {"id": "A", "owner": "alpha", "order": 3, "roe": 10, "squadrons": ALPHA},
            {"id": "B", "owner": "beta", "order": 3, "roe": 10, "squadrons": BETA},
        ],
    }


def run(battles: int) -> tuple[float, float]:
    """Seconds for ``battles`` battles, and the mean number of rounds."""
    parsed = parse_scenario(scenario())
    battle = rulesets.battle(parsed)
    policies = battle.stock_policies()
    rounds = 0
    start = time.perf_counter()
    for seed in range(battles):
        played = play(battle, rulesets.dice_for(parsed, seed), policies)
        rounds += int(str(played.outcome["rounds"]))
    return time.perf_counter() - start, rounds / battles


def run_trials(trials: Trials, first: int, battles: int, batch: int | None = None) -> float:
    """Seconds for ``battles`` Monte Carlo trials from trial ``first`` (seed 0), in batches of
    ``batch`` (default: one)."""
    start = time.perf_counter()
    size = batch or battles
    for at in range(first, first + battles, size):
        trials.run(0, at, min(size, first + battles - at))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--kernel-battles", type=int, default=5_000)
    parser.add_argument("--batch", type=int, default=1_000)
    args = parser.parse_args()
    run(20)  # warm up (data files, caches)
    sampled = Trials(parse_scenario(scenario()))
    kernelled = Trials(parse_scenario(scenario()))
    assert kernelled.kernel is not None, "the kernel plays this battle"
    sampled.kernel = None  # the quiet sampler alone, as before the kernel
    warm_up = 600  # the sampler's memory fills, and it judges whether to go lean
    sampled.run(0, 0, warm_up)
    run_trials(kernelled, 0, args.batch, args.batch)  # its pre-combat sampler, numpy
    times, trial_times, kernel_times = [], [], []
    mean_rounds = 0.0
    for k in range(args.repeats):
        seconds, mean_rounds = run(args.battles)
        times.append(seconds)
        trial_times.append(run_trials(sampled, warm_up + k * args.battles, args.battles))
        first = args.batch + k * args.kernel_battles
        kernel_times.append(run_trials(kernelled, first, args.kernel_battles, args.batch))
    median = statistics.median(times)
    trial_median = statistics.median(trial_times)
    kernel_median = statistics.median(kernel_times)
    print(
        f"machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.system()}"
    )
    print(
        f"EC4X 10 v 10 squadrons: {args.battles} battles x {args.repeats} runs, "
        f"mean {mean_rounds:.2f} rounds a battle"
    )
    print(
        f"  median {median:.3f} s a run: {args.battles / median:,.0f} battles/s, "
        f"{1000 * median / args.battles:.3f} ms a battle "
        f"(runs: {', '.join(f'{t:.3f}' for t in times)})"
    )
    print(
        f"  Monte Carlo trials (quiet sampler, lean: {sampled.sampler.lean}): median "
        f"{trial_median:.3f} s a run: {args.battles / trial_median:,.0f} battles/s, "
        f"{1000 * trial_median / args.battles:.3f} ms a battle "
        f"(runs: {', '.join(f'{t:.3f}' for t in trial_times)}); "
        f"{median / trial_median:.2f} times the resolver's rate"
    )
    kernel_rate = args.kernel_battles / kernel_median
    print(
        f"  Monte Carlo trials (kernel, batches of {args.batch:,}, {args.kernel_battles:,} "
        f"battles a run): median {kernel_median:.3f} s a run: {kernel_rate:,.0f} battles/s, "
        f"{1000 * kernel_median / args.kernel_battles:.3f} ms a battle "
        f"(runs: {', '.join(f'{t:.3f}' for t in kernel_times)}); "
        f"{kernel_rate / (args.battles / median):.1f} times the resolver's rate, "
        f"{kernel_rate / (args.battles / trial_median):.1f} times the quiet sampler's"
    )


if __name__ == "__main__":
    main()
