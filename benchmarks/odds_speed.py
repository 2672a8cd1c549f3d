"""Speed of the exact odds engine (issue 3's bounds): in-process time per battle after start-up.

- 1,000 random battles of at most 12 units a side: median <= 2 ms, 99th percentile <= 50 ms;
- 64 dreadnoughts against 64 dreadnoughts: <= 200 ms;
- 400 battles through ``spacecombat odds -``: <= 5 s of wall time, start-up included.

Run: ``.venv/bin/python -m benchmarks.odds_speed [--ruleset ti4|ti3|ti4-factions] [--battles N]
[--seed S]`` (TI3: the same measures with TI3 units; ti4-factions (issue 14): battles with
factions, flagships, technologies, cards and leaders, benchmarks/factions.py). Prints medians of
repeated runs; results go in docs/benchmarks.md with the machine and the date.

``--large`` (issue 8) measures instead, each in a fresh process, the time and the peak resident
memory of the exact part of the largest battles: 20 dreadnoughts, cruisers, destroyers and
carriers and 60 fighters a side (solved exactly within the budgets of analysis/budget.py), and 30
of each and 80 fighters (200 units, the input limit; refused before any large array, so
``odds()`` would fall back to Monte Carlo).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from spacecombat import odds
from spacecombat.analysis.budget import TooLarge

SHIPS = ("war_sun", "dreadnought", "cruiser", "carrier", "destroyer", "fighter")
GROUND = ("infantry", "mech")
TI3_GROUND = ("ground_force", "mechanized_unit")
UPGRADABLE = ("dreadnought", "cruiser", "carrier", "destroyer", "fighter", "infantry")


def random_units(rng: random.Random, kinds: tuple[str, ...], most: int) -> dict[str, int]:
    """1 to ``most`` units, each of a kind drawn from ``kinds``."""
    units: dict[str, int] = {}
    for _ in range(rng.randint(1, most)):
        unit = rng.choice(kinds)
        units[unit] = units.get(unit, 0) + 1
    return units


def random_side(
    rng: random.Random, kinds: tuple[str, ...], most: int, ruleset: str = "ti4"
) -> dict[str, Any]:
    units = random_units(rng, kinds, most)
    if ruleset == "ti3":  # TI3 has no unit upgrades
        return {"units": units}
    return {"units": units, "upgrades": rng.sample(UPGRADABLE, rng.randint(0, 2))}


def random_battle(rng: random.Random, most: int = 12, ruleset: str = "ti4") -> dict[str, Any]:
    ground = TI3_GROUND if ruleset == "ti3" else GROUND
    if rng.random() < 0.75:
        return {
            "ruleset": ruleset,
            "battle": "space",
            "attacker": random_side(rng, SHIPS, most, ruleset),
            "defender": random_side(rng, SHIPS, most, ruleset),
        }
    return {
        "ruleset": ruleset,
        "battle": "invasion",
        "attacker": random_side(rng, ground, most, ruleset),
        "defender": random_side(rng, ground, most, ruleset),
    }


def timed(scenario: dict[str, Any]) -> float:
    start = time.perf_counter()
    odds(scenario)
    return time.perf_counter() - start


def timed_both(scenario: dict[str, Any]) -> tuple[float, float]:
    """The wall time and the CPU time of this process for the odds of one battle."""
    start, cpu = time.perf_counter(), time.process_time()
    odds(scenario)
    return time.perf_counter() - start, time.process_time() - cpu


def fleet(each: int, fighters: int) -> dict[str, Any]:
    kinds = ("dreadnought", "cruiser", "destroyer", "carrier")
    return {"units": {**dict.fromkeys(kinds, each), "fighter": fighters}}


LARGE = {"20 of each, 60 fighters": (20, 60), "30 of each, 80 fighters": (30, 80)}


def exact_part(name: str) -> str:
    """In this process: the exact engine on one large battle (no fallback); its time, peak
    resident memory and what became of it."""
    each, fighters = LARGE[name]
    side = fleet(each, fighters)
    scenario = {"ruleset": "ti4", "battle": "space", "attacker": side, "defender": side}
    start = time.perf_counter()
    try:
        report = odds(scenario, fallback=False)
        what = f"exact, attacker {float(report.attacker_win):.6f}"
    except TooLarge as exc:
        what = f"refused: {exc}"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return f"{name} a side: {time.perf_counter() - start:.1f} s, peak RSS {peak:.0f} MB, {what}"


def large() -> int:
    for name in LARGE:
        done = subprocess.run(
            [sys.executable, __file__, "--exact-part", name],
            capture_output=True,
            text=True,
            check=True,
        )
        print(done.stdout.strip())
    return 0


def faction_mix(rng: random.Random, count: int) -> int:
    """Issue 14: the exact engine on battles as players enter them (benchmarks/factions.py:
    factions, flagships, technologies, cards, leaders, policies; at most 5 units a side), with
    how many drawn battles the engine still refuses and how many are solved in product form."""
    from benchmarks.factions import draw
    from spacecombat.rulesets import battle, parse_scenario

    battles, refused = [], 0
    for _ in range(count):
        found, lost = draw(rng)
        battles.append(found)
        refused += len(lost)
    odds(battles[0])  # warm-up: imports, data files
    measured = [timed_both(b) for b in battles]
    times = sorted(wall for wall, _ in measured)
    # CPU time too: on a machine shared with other work it is steadier than wall time
    cpus = sorted(cpu for _, cpu in measured)
    # as the exact engine fights them: without the effects the stock policies never play
    # (docs/rulings.md 24B-1)
    product = sum(
        1 for b in battles if _for_odds(battle(parse_scenario(b))).product_refusal() is None
    )
    median = statistics.median(times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    cpu_p99 = cpus[min(len(cpus) - 1, int(0.99 * len(cpus)))]
    print("ruleset ti4-factions")
    print(
        f"machine: {platform.machine()}, {platform.processor() or '?'}, python "
        f"{platform.python_version()}"
    )
    print(
        f"{count} battles accepted ({refused} drawn and refused by name on the way); "
        f"{product} with their rounds in product form"
    )
    print(
        f"exact odds: median {1000 * median:.2f} ms, p99 {1000 * p99:.1f} ms, "
        f"max {1000 * times[-1]:.1f} ms"
    )
    print(
        f"CPU time: median {1000 * statistics.median(cpus):.2f} ms, p99 {1000 * cpu_p99:.1f} ms, "
        f"max {1000 * cpus[-1]:.1f} ms"
    )
    return 0


def _for_odds(process: Any) -> Any:
    """The battle as the exact engine fights it (a ruleset's own ``for_stock_policies``)."""
    narrowed = getattr(process, "for_stock_policies", None)
    return narrowed() if narrowed is not None else process


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", choices=("ti4", "ti3", "ti4-factions"), default="ti4")
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--large", action="store_true", help="the largest battles instead")
    parser.add_argument("--exact-part", choices=list(LARGE), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.exact_part:
        print(exact_part(args.exact_part))
        return 0
    if args.large:
        return large()
    rng = random.Random(args.seed)
    if args.ruleset == "ti4-factions":
        return faction_mix(rng, args.battles)
    battles = [random_battle(rng, ruleset=args.ruleset) for _ in range(args.battles)]
    odds(battles[0])  # warm-up: imports, data files
    times = sorted(timed(b) for b in battles)
    median = statistics.median(times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    big = {
        "ruleset": args.ruleset,
        "battle": "space",
        "attacker": {"units": {"dreadnought": 64}},
        "defender": {"units": {"dreadnought": 64}},
    }
    big_times = [timed(big) for _ in range(3)]
    lines = "".join(json.dumps(b) + "\n" for b in battles[:400])
    exe = Path(sys.executable).with_name("spacecombat")
    walls = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(
            [str(exe), "odds", "-"], input=lines, text=True, capture_output=True, check=True
        )
        walls.append(time.perf_counter() - start)
    print(f"ruleset {args.ruleset}")
    print(
        f"machine: {platform.machine()}, {platform.processor() or '?'}, python "
        f"{platform.python_version()}"
    )
    print(
        f"{len(times)} random battles (<= 12 units a side): median {1000 * median:.2f} ms, "
        f"p99 {1000 * p99:.1f} ms, max {1000 * times[-1]:.1f} ms"
    )
    print(f"64 v 64 dreadnoughts: median of 3 {1000 * statistics.median(big_times):.0f} ms")
    print(
        f"400 battles through 'spacecombat odds -': median of 3 "
        f"{statistics.median(walls):.2f} s wall"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
