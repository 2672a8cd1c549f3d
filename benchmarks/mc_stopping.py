"""Monte Carlo's stopping rule (issue 24): the trials it plays and its wall time by default
(every headline within ±0.5 points, docs/protocol.md) against the fixed 20,000 trials of
before (``precision=0``), and the rule's own cost: the same trials played with the rule read
after every batch and without it.

    .venv/bin/python -m benchmarks.mc_stopping [--workers N] [--repeat R]

Medians of ``--repeat`` runs (default 3), one line per battle."""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

import yaml

from spacecombat.analysis.montecarlo import monte_carlo

ROOT = Path(__file__).resolve().parent.parent
BATTLES: dict[str, Any] = {
    "ti4 dreadnoughts vs cruisers": ROOT / "examples" / "odds-dreadnoughts-vs-cruisers.yaml",
    "ti4 tactical two planets": ROOT / "examples" / "ti4-tactical-two-planets.yaml",
    "ec4x two houses": ROOT / "examples" / "ec4x" / "two-houses.yaml",
    "ec4x three houses": ROOT / "examples" / "ec4x" / "three-houses.yaml",
}


def timed(scenario: Any, repeat: int, **options: Any) -> tuple[float, int]:
    times, trials = [], 0
    for _ in range(repeat):
        started = time.perf_counter()
        report = monte_carlo(scenario, **options)
        times.append(time.perf_counter() - started)
        trials = report.trials or 0
    return statistics.median(times), trials


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("battle | default: trials, s | fixed 20,000: s | same trials without the rule: s")
    for name, path in BATTLES.items():
        scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
        adaptive, trials = timed(scenario, args.repeat, workers=args.workers)
        fixed, _ = timed(scenario, args.repeat, workers=args.workers, precision=0)
        bare, _ = timed(scenario, args.repeat, workers=args.workers, precision=0, trials=trials)
        print(f"{name} | {trials:,}, {adaptive:.2f} | {fixed:.2f} | {bare:.2f}")


if __name__ == "__main__":
    main()
