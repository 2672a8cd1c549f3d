"""Cross-check: exact odds against Monte Carlo on random battles.

For each of N random battles (space and invasion, at most 6 units a side) the exact engine's
probability p of each result is compared with the number k of the n Monte Carlo battles (played
by the resolver) that ended so. Both come from the same rules code by different routes
(enumerating chance outcomes against rolling dice), so the two should agree within sampling
error.

How far apart they are is measured in standard errors, z = |k/n - p| / sqrt(p (1 - p) / n), and,
since that normal approximation breaks down for rare results (with p = 1e-5 and n = 4000, one
occurrence is 4.6 standard errors away, yet happens in 4% of samples), also exactly: the
binomial tail P(X beyond k) (mid-p) under Bin(n, p), as the standard normal quantile with the
same tail ("exact z"). For results with n p large the two are the same. A battle passes when
every result is within 4 by the exact measure; with 600 comparisons a few near 3 are expected.

``--ruleset ti4-factions`` (issue 14) draws battles as players enter them: factions, flagships,
technologies, action cards, promissory notes, leaders and policies (benchmarks/factions.py).

Run: ``.venv/bin/python -m benchmarks.crosscheck [--ruleset ti4|ti3|ti4-factions] [--battles 200]
[--trials 4000] [--seed 0] [--workers W]``. Prints how many battles are within 4, the worst z
by each measure and the time; exits 1 if any result is beyond 4 (exact measure).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from spacecombat import odds
from spacecombat.analysis.report import OddsReport

SHIPS = ("war_sun", "dreadnought", "cruiser", "carrier", "destroyer", "fighter")
GROUND = ("infantry", "mech")
UPGRADABLE = ("dreadnought", "cruiser", "carrier", "destroyer", "fighter", "infantry")
SPACE_TECHS = ("antimass_deflectors", "duranium_armor", "non_euclidean_shielding")
LIMIT = 4.0
MOST = 6


def _units(rng: random.Random, kinds: tuple[str, ...], most: int) -> dict[str, int]:
    units: dict[str, int] = {}
    for _ in range(rng.randint(1, most)):
        unit = rng.choice(kinds)
        units[unit] = units.get(unit, 0) + 1
    return units


def _space_side(rng: random.Random, *, pds: bool) -> dict[str, Any]:
    units = _units(rng, SHIPS, MOST - 1 if pds else MOST)
    if pds:
        units["pds"] = 1
    side: dict[str, Any] = {"units": units, "upgrades": rng.sample(UPGRADABLE, rng.randint(0, 2))}
    if rng.random() < 0.3:
        side["technologies"] = [rng.choice(SPACE_TECHS)]
    return side


def random_battle(rng: random.Random) -> dict[str, Any]:
    """A space battle (perhaps with a PDS, a technology, a retreat) or an invasion (perhaps
    with a bombarding dreadnought and a PDS on the planet)."""
    policy: dict[str, Any] = {"sustain": rng.choice(["first", "last"])}
    if rng.random() < 0.65:
        battle: dict[str, Any] = {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": _space_side(rng, pds=False),
            "defender": _space_side(rng, pds=rng.random() < 0.2),
            "policy": policy,
        }
        if rng.random() < 0.2:
            retreat = rng.choice([{"after_round": rng.randint(1, 2)}, {"when_outnumbered": 1.5}])
            battle["attacker"]["policy"] = {"retreat": retreat}
            battle["system"] = {"name": "A", "adjacent": [{"name": "B", "units": ["attacker"]}]}
        return battle
    attacker = _units(rng, GROUND, MOST - 1)
    if rng.random() < 0.4:
        attacker["dreadnought"] = 1
    defender = _units(rng, GROUND, MOST - 1)
    if rng.random() < 0.3:
        defender["pds"] = 1
    return {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": {"units": attacker, "upgrades": rng.sample(UPGRADABLE, rng.randint(0, 1))},
        "defender": {"units": defender},
        "policy": policy,
    }


TI3_SHIPS = ("war_sun", "dreadnought", "cruiser", "carrier", "destroyer", "fighter")
TI3_GROUND = ("ground_force", "ground_force", "mechanized_unit")
TI3_SPACE_TECHS = (
    "hylar_v_assault_laser",
    "automated_defense_turrets",
    "assault_cannon",
    "duranium_armor",
    "cybernetics",
    "advanced_fighters",
    "magen_defense_grid",
    "graviton_laser_system",
    "maneuvering_jets",
)
TI3_GROUND_TECHS = (
    "gen_synthesis",
    "magen_defense_grid",
    "x89_bacterial_weapon",
    "graviton_negator",
    "dacxive_animators",
    "graviton_laser_system",
)
TI3_RACES = ("sardakk", "jolnar", "l1z1x", "mentak", "xxcha", "hacan")


def _ti3_side(rng: random.Random, kinds: tuple[str, ...], techs: tuple[str, ...]) -> dict[str, Any]:
    side: dict[str, Any] = {"units": _units(rng, kinds, MOST - 1)}
    if rng.random() < 0.4:
        side["technologies"] = rng.sample(techs, rng.randint(1, 2))
    if rng.random() < 0.25:
        side["faction"] = rng.choice(TI3_RACES)
    return side


def random_ti3_battle(rng: random.Random) -> dict[str, Any]:
    """A TI3 space battle (perhaps with a PDS, techs, a race, a withdrawal, fleet supply, a
    nebula) or invasion (perhaps with bombardment, a PDS, Shock Troops)."""
    policy: dict[str, Any] = {"sustain": rng.choice(["first", "last"])}
    if rng.random() < 0.6:
        attacker = _ti3_side(rng, TI3_SHIPS, TI3_SPACE_TECHS)
        defender = _ti3_side(rng, TI3_SHIPS, TI3_SPACE_TECHS)
        if rng.random() < 0.25:
            defender["units"]["pds"] = 1
        battle: dict[str, Any] = {
            "ruleset": "ti3",
            "battle": "space",
            "attacker": attacker,
            "defender": defender,
            "policy": policy,
        }
        if rng.random() < 0.15:
            battle["system"] = {"anomaly": "nebula"}
        if rng.random() < 0.15:
            attacker["fleet_supply"] = rng.randint(1, 3)
        if rng.random() < 0.2:
            side = rng.choice(["attacker", "defender"])
            retreat = rng.choice([{"after_round": rng.randint(1, 2)}, {"when_outnumbered": 1.5}])
            battle[side]["policy"] = {"retreat": retreat}
            battle["system"] = {
                "name": "A",
                "adjacent": [{"name": "B", "command_tokens": [side]}],
            }
        return battle
    attacker = _ti3_side(rng, TI3_GROUND, TI3_GROUND_TECHS)
    if rng.random() < 0.4:
        attacker["units"][rng.choice(["dreadnought", "war_sun"])] = 1
    defender = _ti3_side(rng, TI3_GROUND, TI3_GROUND_TECHS)
    if rng.random() < 0.3:
        defender["units"]["pds"] = 1
    battle = {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": attacker,
        "defender": defender,
        "policy": policy,
    }
    if rng.random() < 0.3:
        battle["options"] = {"shock_troops": True}
    return battle


@dataclass
class Check:
    index: int
    scenario: dict[str, Any]
    #: the largest distance of any result: in standard errors, and by the exact binomial tail
    worst_se: float
    worst_exact: float
    result: str


def _probabilities(report: OddsReport) -> dict[str, float]:
    found = {
        "attacker_win": float(report.attacker_win),
        "defender_win": float(report.defender_win),
        "draw": float(report.draw),
    }
    found.update({name: float(p) for name, p in report.other.items()})
    return found


def z_score(exact: float, sampled: float, trials: int) -> float:
    """Standard errors between a sampled share and the exact probability (an outcome the exact
    engine calls certain or impossible must be sampled so every time: else infinity)."""
    error = math.sqrt(max(exact * (1 - exact), 0.0) / trials)
    if error > 1e-12:
        return abs(sampled - exact) / error
    return 0.0 if abs(sampled - exact) < 1e-9 else math.inf


def exact_z(p: float, k: int, n: int) -> float:
    """The standard normal quantile of the mid-p binomial tail beyond ``k`` of ``n`` (on the
    side of the mean that ``k`` lies), or 0 when ``k`` is at the mean."""
    if p <= 1e-15 or p >= 1 - 1e-15:
        certain = n if p >= 0.5 else 0
        return 0.0 if k == certain else math.inf
    log_p, log_q = math.log(p), math.log1p(-p)

    def pmf(i: int) -> float:
        log = math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
        return math.exp(log + i * log_p + (n - i) * log_q)

    beyond = range(k + 1, n + 1) if k >= n * p else range(k)
    tail = sum(pmf(i) for i in beyond) + 0.5 * pmf(k)
    if tail >= 0.5:
        return 0.0
    return -NormalDist().inv_cdf(max(tail, 1e-300))


def check(index: int, scenario: dict[str, Any], trials: int, seed: int, workers: int) -> Check:
    exact = _probabilities(odds(scenario, fallback=False))
    report = odds(scenario, method="montecarlo", trials=trials, seed=seed + index, workers=workers)
    sampled = _probabilities(report)
    assert report.trials == trials
    worst_se, worst_exact, result = 0.0, 0.0, ""
    for name in sorted(exact.keys() | sampled.keys()):
        p, q = exact.get(name, 0.0), sampled.get(name, 0.0)
        worst_se = max(worst_se, z_score(p, q, trials))
        z = exact_z(p, round(q * trials), trials)
        if z > worst_exact:
            worst_exact, result = z, name
    return Check(index, scenario, worst_se, worst_exact, result)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--ruleset", choices=("ti4", "ti3", "ti4-factions"), default="ti4")
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--trials", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    refused: list[str] = []
    if args.ruleset == "ti4-factions":
        from benchmarks.factions import draw

        battles = []
        for _ in range(args.battles):
            found, lost = draw(rng)
            battles.append(found)
            refused += lost
    else:
        make = random_ti3_battle if args.ruleset == "ti3" else random_battle
        battles = [make(rng) for _ in range(args.battles)]
    start = time.perf_counter()
    checks = [
        check(i, battle, args.trials, args.seed, args.workers) for i, battle in enumerate(battles)
    ]
    elapsed = time.perf_counter() - start
    within = sum(1 for c in checks if c.worst_exact <= LIMIT)
    worst = max(checks, key=lambda c: c.worst_exact)
    worst_se = max(checks, key=lambda c: c.worst_se)
    spaces = sum(1 for b in battles if b["battle"] == "space")
    print(
        f"{args.ruleset}: {len(checks)} battles ({spaces} space, {len(checks) - spaces} invasion), "
        f"{args.trials} Monte Carlo trials each on {args.workers} worker(s), seed {args.seed}"
    )
    if args.ruleset == "ti4-factions":
        print(f"battles drawn and refused by name on the way: {len(refused)}")
    print(f"within {LIMIT:g} (exact binomial z): {within}/{len(checks)}")
    print(
        f"within {LIMIT:g} standard errors: "
        f"{sum(1 for c in checks if c.worst_se <= LIMIT)}/{len(checks)}"
    )
    print(f"worst exact z: {worst.worst_exact:.2f} ({worst.result}, battle {worst.index})")
    print(f"worst z in standard errors: {worst_se.worst_se:.2f} (battle {worst_se.index})")
    print(f"time: {elapsed:.1f} s")
    for c in checks:
        if max(c.worst_exact, c.worst_se) > LIMIT:
            print(
                f"battle {c.index}: exact z {c.worst_exact:.2f}, {c.worst_se:.2f} standard "
                f"errors: {c.scenario}"
            )
    return 0 if within == len(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
