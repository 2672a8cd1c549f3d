"""Issue 12's bounds ("exact odds at interactive speed"): each row of its table, measured as it
is today, with the method each battle got (``exact`` or ``montecarlo``) and its note.

- ``random``: 1,000 random battles (``odds_speed.random_battle``: at most 12 units a side, 3/4
  space, 1/4 invasion, seed 2026), in process after a warm-up: median, 99th percentile,
  slowest (bounds: median <= 1 ms, p99 <= 10 ms);
- ``example``: ``spacecombat odds examples/odds-dreadnoughts-vs-cruisers.yaml``, wall time,
  start-up included, median of 5 (<= 0.3 s);
- ``batch``: 400 of the random battles through ``spacecombat odds -``, wall, median of 3
  (<= 1 s);
- ``retreat``: 4 each of dreadnought, cruiser, carrier and fighter (attacker) against 4 each of
  dreadnought, destroyer, carrier and fighter, the attacker's policy ``retreat:
  {when_outnumbered: 1.5}`` and separately ``{after_round: 2}``, system B adjacent for the
  retreat (<= 1 s exact); the same with 8 of each (<= 5 s);
- ``planets``: invasions of 3 planets: 2 infantry defending each, 3 infantry committed to each
  (<= 0.2 s); 6 infantry and 2 mechs defending each, 20 infantry committed 7, 7 and 6
  (<= 1 s) (the attacker's ground forces are its units, allotted with each planet's
  ``commit``, as in ``tests/golden/invasion-two-planets.yaml``);
- ``dreadnoughts``: 128 v 128 and 256 v 256 dreadnoughts (<= 1 s; <= 5 s); 256 is over the
  input limit of 200 units a side (docs/limits.md), so 200 v 200 is measured beside it;
- ``montecarlo``: Monte Carlo trials per second on a 6-unit-a-side space battle, the 8-of-each
  retreat battle (``after_round: 2``) and the smaller 3-planet invasion: one worker and the
  pool (one per core), and, for comparison, the resolver's own loop (``play`` with its log,
  faces from ``randint``), the way Monte Carlo played its trials before issue 12.

Every case of ``random``, ``retreat``, ``planets`` and ``dreadnoughts`` runs in a fresh process
(in-process time of ``odds()`` after a warm-up battle, default options: a Monte Carlo fallback
plays 20,000 trials on every core) stopped after ``--cap`` seconds ("over N s"), so the harness
always finishes.

Run: ``.venv/bin/python -m benchmarks.interactive [--only SECTION[,SECTION...]] [--battles N]
[--cap SECONDS] [--trials N] [--montecarlo]`` (``--montecarlo``: that section only). Prints the
machine, then one line per measure; results go in docs/benchmarks.md with the date.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.odds_speed import random_battle
from spacecombat import odds, rulesets
from spacecombat.analysis.montecarlo import monte_carlo, trial_seed
from spacecombat.core.dice import SIDES, SeededDice
from spacecombat.core.engine import play
from spacecombat.core.limits import cores
from spacecombat.rulesets import parse_scenario

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = "examples/odds-dreadnoughts-vs-cruisers.yaml"
RETREAT_TO_B = {"name": "A", "adjacent": [{"name": "B", "units": ["attacker"]}]}
SECTIONS = ("random", "example", "batch", "retreat", "planets", "dreadnoughts", "montecarlo")


def retreat_battle(each: int, retreat: dict[str, Any]) -> dict[str, Any]:
    """``each`` of dreadnought, cruiser, carrier, fighter retreating by ``retreat`` against
    ``each`` of dreadnought, destroyer, carrier, fighter."""
    attacker = dict.fromkeys(("dreadnought", "cruiser", "carrier", "fighter"), each)
    defender = dict.fromkeys(("dreadnought", "destroyer", "carrier", "fighter"), each)
    return {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": attacker, "policy": {"retreat": retreat}},
        "defender": {"units": defender},
        "system": RETREAT_TO_B,
    }


def planets_invasion(defending: dict[str, int], committed: list[int]) -> dict[str, Any]:
    """An invasion of one planet per entry of ``committed`` (that many infantry landing),
    each planet defended by ``defending``."""
    return {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": {"units": {"infantry": sum(committed)}},
        "defender": {},
        "planets": [
            {"name": f"P{i + 1}", "defender": dict(defending), "commit": {"infantry": n}}
            for i, n in enumerate(committed)
        ],
    }


def dreadnoughts(each: int) -> dict[str, Any]:
    side = {"units": {"dreadnought": each}}
    return {"ruleset": "ti4", "battle": "space", "attacker": side, "defender": side}


TYPICAL = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"dreadnought": 2, "cruiser": 2, "carrier": 1, "fighter": 1}},
    "defender": {"units": {"destroyer": 2, "cruiser": 2, "dreadnought": 1, "carrier": 1}},
}

#: the heavy cases: (section, name, bound, scenario)
CASES: dict[str, tuple[str, str, Callable[[], dict[str, Any]]]] = {
    "retreat 4, when_outnumbered 1.5": (
        "retreat",
        "exact, 1 s",
        lambda: retreat_battle(4, {"when_outnumbered": 1.5}),
    ),
    "retreat 4, after_round 2": (
        "retreat",
        "exact, 1 s",
        lambda: retreat_battle(4, {"after_round": 2}),
    ),
    "retreat 8, when_outnumbered 1.5": (
        "retreat",
        "exact, 5 s",
        lambda: retreat_battle(8, {"when_outnumbered": 1.5}),
    ),
    "retreat 8, after_round 2": (
        "retreat",
        "exact, 5 s",
        lambda: retreat_battle(8, {"after_round": 2}),
    ),
    "3 planets, 2 inf v 3 each": (
        "planets",
        "exact, 0.2 s",
        lambda: planets_invasion({"infantry": 2}, [3, 3, 3]),
    ),
    "3 planets, 6 inf + 2 mech v 20": (
        "planets",
        "exact, 1 s",
        lambda: planets_invasion({"infantry": 6, "mech": 2}, [7, 7, 6]),
    ),
    "128 v 128 dreadnoughts": ("dreadnoughts", "1 s", lambda: dreadnoughts(128)),
    "256 v 256 dreadnoughts": ("dreadnoughts", "5 s", lambda: dreadnoughts(256)),
    "200 v 200 dreadnoughts (the limit)": ("dreadnoughts", "5 s", lambda: dreadnoughts(200)),
}


def machine() -> str:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numpy

    return (
        f"machine: {platform.machine()}, {model}, {cores()} core(s) usable, "
        f"{platform.system()} {platform.release()}; python {platform.python_version()}, "
        f"numpy {numpy.__version__}; {time.strftime('%Y-%m-%d %H:%M')}"
    )


def said(report: Any) -> dict[str, Any]:
    return {"method": report.method, "note": report.note}


def warm_up() -> None:
    """Imports, data files and first calls, before anything is timed."""
    odds(TYPICAL)
    odds(planets_invasion({"infantry": 1}, [2]))


# --- in a child process ---


def child_case(name: str) -> dict[str, Any]:
    """One heavy case: the in-process time of ``odds()`` after the warm-up."""
    warm_up()
    scenario = CASES[name][2]()
    start = time.perf_counter()
    try:
        report = odds(scenario)
    except Exception as exc:  # a refusal (e.g. over the unit limit) is what happens today
        return {"seconds": time.perf_counter() - start, "refused": f"{type(exc).__name__}: {exc}"}
    return {"seconds": time.perf_counter() - start, **said(report)}


def child_random(battles: int, seed: int) -> dict[str, Any]:
    """The random battles: each one's time, the methods and the notes."""
    rng = random.Random(seed)
    scenarios = [random_battle(rng) for _ in range(battles)]
    warm_up()
    odds(scenarios[0])
    times, methods, notes = [], Counter[str](), Counter[str]()
    for scenario in scenarios:
        start = time.perf_counter()
        report = odds(scenario)
        times.append(time.perf_counter() - start)
        methods[report.method] += 1
        if report.note:
            notes[report.note.split(":", 1)[0]] += 1
    times.sort()
    return {
        "median": statistics.median(times),
        "p99": times[min(len(times) - 1, int(0.99 * len(times)))],
        "max": times[-1],
        "methods": dict(methods),
        "notes": dict(notes),
    }


def in_child(args: list[str], cap: float) -> dict[str, Any] | None:
    """Run this module with ``args`` in a fresh process (its own process group, so a Monte
    Carlo pool goes with it); its JSON answer, or ``None`` if it took more than ``cap``
    seconds."""
    child = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.interactive", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = child.communicate(timeout=cap)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        return None
    if child.returncode != 0:
        raise RuntimeError(f"{args}: exit status {child.returncode}: {err.strip()[-2000:]}")
    answer: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return answer


# --- the sections ---


def row(measure: str, bound: str, result: str, how: str = "") -> None:
    print(f"{measure:<40} {bound:>12}  {result:>12}  {how}")


def section_random(battles: int, seed: int, cap: float) -> None:
    found = in_child(["--random", str(battles), "--seed", str(seed)], cap)
    name = f"{battles:,} random battles"
    if found is None:
        row(f"median, {name}", "1 ms", f"over {cap:g} s")
        return
    how = "methods " + ", ".join(f"{m} {n}" for m, n in sorted(found["methods"].items()))
    if found["notes"]:
        how += "; notes " + ", ".join(f"{m!r} {n}" for m, n in found["notes"].items())
    row(f"median, {name}", "1 ms", f"{1000 * found['median']:.2f} ms", how)
    row("99th percentile, same", "10 ms", f"{1000 * found['p99']:.1f} ms")
    row("slowest, same", "-", f"{1000 * found['max']:.1f} ms")


def wall(command: list[str], stdin: str | None, cap: float) -> tuple[float | None, str]:
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command, input=stdin, text=True, capture_output=True, check=True, cwd=ROOT, timeout=cap
        )
    except subprocess.TimeoutExpired:
        return None, ""
    return time.perf_counter() - start, done.stdout


def section_example(cap: float) -> None:
    exe = str(Path(sys.executable).with_name("spacecombat"))
    walls = []
    for _ in range(5):
        seconds, _out = wall([exe, "odds", EXAMPLE], None, cap)
        if seconds is None:
            row("odds of the example, wall", "0.3 s", f"over {cap:g} s")
            return
        walls.append(seconds)
    _, out = wall([exe, "odds", EXAMPLE, "--format", "json"], None, cap)
    report = json.loads(out) if out else {}
    how = f"{report.get('method', '?')}" + (
        f"; note {report['note']}" if report.get("note") else ""
    )
    row(
        "odds of the example, wall (median of 5)", "0.3 s", f"{statistics.median(walls):.2f} s", how
    )


def section_batch(seed: int, cap: float) -> None:
    rng = random.Random(seed)
    lines = "".join(json.dumps(random_battle(rng)) + "\n" for _ in range(400))
    exe = str(Path(sys.executable).with_name("spacecombat"))
    walls, out = [], ""
    for _ in range(3):
        seconds, out = wall([exe, "odds", "-"], lines, cap)
        if seconds is None:
            row("400 battles through 'odds -', wall", "1 s", f"over {cap:g} s")
            return
        walls.append(seconds)
    methods = Counter(json.loads(line).get("method", "?") for line in out.splitlines() if line)
    how = "methods " + ", ".join(f"{m} {n}" for m, n in sorted(methods.items()))
    row("400 battles via 'odds -' (median of 3)", "1 s", f"{statistics.median(walls):.2f} s", how)


def section_cases(section: str, cap: float) -> None:
    for name, (where, bound, _) in CASES.items():
        if where != section:
            continue
        found = in_child(["--case", name], cap)
        if found is None:
            row(name, bound, f"over {cap:g} s")
        elif "refused" in found:
            row(name, bound, f"{found['seconds']:.2f} s", f"refused: {found['refused']}")
        else:
            how = found["method"] + (f"; note: {found['note']}" if found["note"] else "")
            row(name, bound, f"{found['seconds']:.2f} s", how)


class RandintDice(SeededDice):
    """``SeededDice`` as it rolled before issue 12: one ``randint`` call a face."""

    def roll(self, count: int) -> tuple[int, ...]:
        return tuple(self._random.randint(1, SIDES) for _ in range(count))


def section_montecarlo(trials: int) -> None:
    battles = {
        "6 v 6 space battle": TYPICAL,
        "retreat 8, after_round 2": retreat_battle(8, {"after_round": 2}),
        "3 planets, 2 inf v 3 each": planets_invasion({"infantry": 2}, [3, 3, 3]),
    }
    pool = cores()
    print(f"Monte Carlo trials per second ({trials:,} trials; pool: {pool} workers):")
    for name, data in battles.items():
        scenario = parse_scenario(data)
        battle = rulesets.battle(scenario)
        policies = battle.stock_policies()
        # the resolver's loop, with its log, as Monte Carlo played before: a few hundred
        count = max(1, min(trials, 500))
        start = time.perf_counter()
        for trial in range(count):
            play(battle, RandintDice(trial_seed(0, trial)), policies)
        before = count / (time.perf_counter() - start)
        rates = []
        for workers in (1, pool):
            start = time.perf_counter()
            monte_carlo(scenario, trials=trials, seed=0, workers=workers)
            rates.append(trials / (time.perf_counter() - start))
        print(
            f"  {name:<28} resolver loop {before:8,.0f}/s   one worker {rates[0]:8,.0f}/s   "
            f"pool {rates[1]:8,.0f}/s"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", default=",".join(SECTIONS), help=f"sections, comma-separated: {SECTIONS}"
    )
    parser.add_argument("--montecarlo", action="store_true", help="the montecarlo section only")
    parser.add_argument("--battles", type=int, default=1000, help="random battles (1,000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cap", type=float, default=180.0, help="seconds a case may take")
    parser.add_argument("--trials", type=int, default=20_000, help="Monte Carlo section trials")
    parser.add_argument("--case", choices=list(CASES), help=argparse.SUPPRESS)
    parser.add_argument("--random", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(child_case(args.case)))
        return 0
    if args.random:
        print(json.dumps(child_random(args.random, args.seed)))
        return 0
    only = ["montecarlo"] if args.montecarlo else [s.strip() for s in args.only.split(",")]
    unknown = [s for s in only if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {unknown}; choose from {SECTIONS}")
    print(machine())
    row("measure", "bound", "result", "method, note")
    for section in SECTIONS:
        if section not in only:
            continue
        if section == "random":
            section_random(args.battles, args.seed, args.cap)
        elif section == "example":
            section_example(args.cap)
        elif section == "batch":
            section_batch(args.seed, args.cap)
        elif section == "montecarlo":
            section_montecarlo(args.trials)
        else:
            section_cases(section, args.cap)
    return 0


if __name__ == "__main__":
    sys.exit(main())
