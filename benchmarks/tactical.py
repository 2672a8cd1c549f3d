"""Speed of a tactical action's exact odds (issue 22): a typical action, at most 10 ships a
side, 2 planets, at most 6 ground forces each, in process after start-up; median <= 50 ms.

Run: ``.venv/bin/python -m benchmarks.tactical [--actions N] [--seed S]``. Each action is built
from the seed, its odds computed (``spacecombat.odds``, exact, stage by stage) three times and
the fastest kept (the machine is shared); prints the median, the 90th percentile and the
slowest over the actions, and the median stage-by-stage against the whole action explored
state by state on the small actions of tests/odds/test_tactical.py. Results go in
docs/benchmarks.md with the machine and the date.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from typing import Any

from spacecombat import odds
from spacecombat.analysis.exact import exact_odds
from spacecombat.rulesets import parse_scenario

SHIPS = ("dreadnought", "cruiser", "destroyer", "carrier", "fighter")
DEFENDERS = ("dreadnought", "cruiser", "destroyer", "carrier", "fighter")


def typical_action(rng: random.Random) -> dict[str, Any]:
    """2 to 10 ships a side (carriers enough for the fighters and ground forces), two planets
    with up to 6 ground forces each and a PDS at times, ground forces committed to each."""
    attacker: dict[str, int] = {"carrier": 2}
    for _ in range(rng.randint(0, 8)):
        ship = rng.choice(SHIPS)
        if ship == "fighter" and attacker.get("fighter", 0) >= 2:
            ship = "dreadnought"
        attacker[ship] = attacker.get(ship, 0) + 1
    attacker["infantry"] = rng.randint(2, 6)
    defender: dict[str, int] = {}
    for _ in range(rng.randint(1, 10)):
        ship = rng.choice(DEFENDERS)
        defender[ship] = defender.get(ship, 0) + 1
    if defender.get("fighter"):
        defender["carrier"] = max(defender.get("carrier", 0), (defender["fighter"] + 3) // 4)
    planets = []
    for name in ("Lodor", "Quann"):
        units = {"infantry": rng.randint(1, 4)}
        if rng.random() < 0.5:
            units["mech"] = rng.randint(1, 2)
        if rng.random() < 0.4:
            units["pds"] = 1
        planets.append({"name": name, "defender": units, "commit": {"infantry": 3}})
    return {
        "ruleset": "ti4",
        "battle": "tactical",
        "attacker": {"units": attacker, "upgrades": rng.sample(["cruiser", "destroyer"], 1)},
        "defender": {"units": defender},
        "planets": planets,
    }


def _fastest(scenario: Any, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        odds(scenario, fallback=False)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    odds(parse_scenario(typical_action(random.Random(-1))))  # start-up: data, imports
    times = []
    for _ in range(args.actions):
        times.append(_fastest(parse_scenario(typical_action(rng))))
    times.sort()
    ms = [1000 * t for t in times]
    print(f"{platform.machine()} {platform.processor() or ''} Python {sys.version.split()[0]}")
    print(
        f"{args.actions} typical tactical actions: median {statistics.median(ms):.1f} ms, "
        f"p90 {ms[int(0.9 * len(ms))]:.1f} ms, slowest {ms[-1]:.1f} ms"
    )
    from tests.odds.test_tactical import ti4_action

    ratios = []
    for seed in range(30):
        scenario = parse_scenario(ti4_action(seed))
        start = time.perf_counter()
        exact_odds(scenario, product_form=False, limit=None)
        whole = time.perf_counter() - start
        ratios.append(whole / _fastest(scenario))
    print(
        f"small actions: state by state / stage by stage, median {statistics.median(ratios):.1f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
