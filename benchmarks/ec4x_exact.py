"""Exact EC4X odds (issue 24): in-process time (wall and CPU) of ``exact_odds`` on every example of
``examples/ec4x`` and on battles of one, two and three single-ship squadrons a side (morale
drawn by the engine), with the default budget; a battle refused (``TooLarge``) is reported with
the time the exact engine took to give up (``odds()`` then plays Monte Carlo, not timed here).

Run: ``.venv/bin/python -m benchmarks.ec4x_exact [--repeats R]``; to measure the code before a
change, run it with ``PYTHONPATH`` pointing at that code's ``src``. Prints the median of
``--repeats`` runs per battle; results go in docs/benchmarks.md with the machine and the date.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path
from typing import Any

import yaml

from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "ec4x"
#: single-ship squadrons, a side against a side
SIDES = {
    "1v1": (["DD"], ["DD"]),
    "2v2": (["CA", "DD"], ["CL", "DD"]),
    "3v3": (["CA", "CL", "DD"], ["BC", "DD", "FG"]),
}


def squadrons(alpha: list[str], beta: list[str]) -> dict[str, Any]:
    """Two houses at war in neutral space, morale drawn by the engine (7.1.4)."""

    def fleet(fid: str, owner: str, ships: list[str]) -> dict[str, Any]:
        spec = [{"flagship": s} for s in ships]
        return {"id": fid, "owner": owner, "order": 3, "roe": 8, "squadrons": spec}

    return {
        "ruleset": "ec4x",
        "game_id": "bench-exact",
        "turn": 1,
        "system": {"name": "Bench"},
        "houses": {"alpha": {"prestige": 50}, "beta": {"prestige": 50}},
        "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
        "fleets": [fleet("A1", "alpha", alpha), fleet("B1", "beta", beta)],
    }


def cases() -> list[tuple[str, dict[str, Any]]]:
    found = [(p.name, yaml.safe_load(p.read_text())) for p in sorted(EXAMPLES.glob("*.yaml"))]
    return found + [(name, squadrons(*sides)) for name, sides in SIDES.items()]


def measure(scenario: dict[str, Any], repeats: int) -> tuple[str, float, float]:
    """The answer, and the median wall and CPU time (a shared machine's wall time grows with
    its load; the CPU time much less)."""
    walls, cpus = [], []
    how = "exact"
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        try:
            exact_odds(scenario)
        except TooLarge:
            how = "refused"
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return how, statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("| battle | answer | median wall | median CPU |")
    print("|---|---|---|---|")
    for name, scenario in cases():
        how, wall, cpu = measure(scenario, args.repeats)
        print(f"| {name} | {how} | {wall:.2f} s | {cpu:.2f} s |", flush=True)


if __name__ == "__main__":
    main()
