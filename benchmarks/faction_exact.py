"""The exact engine alone on the TI4 faction mix (issue 24): random faction battles
(benchmarks/factions.py ``random_faction_battle``, every one the set-up accepts, numbered in
the order drawn), each solved with ``odds(..., fallback=False)``; how many are too large for
it, and its CPU time (``time.process_time()``: steadier than wall time on a shared machine).

    python -m benchmarks.faction_exact --battles 300 --seed 2026 [--slowest 15] [--json FILE]

``--json`` writes each battle's number, CPU time, report (or refusal), so that two trees'
answers can be compared battle by battle.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from benchmarks.factions import random_faction_battle
from spacecombat import odds
from spacecombat.analysis.budget import TooLarge
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.setup import build


def battles(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` faction battles the set-up accepts, in the order drawn."""
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    while len(found) < count:
        scenario = random_faction_battle(rng)
        try:
            build(parse_ti_scenario(scenario))
        except RuleNotImplemented:
            continue
        found.append(scenario)
    return found


def solve(scenario: dict[str, Any]) -> dict[str, Any]:
    """The exact engine on one battle: its CPU time and report, or why it refused."""
    start = time.process_time()
    try:
        report: object = odds(scenario, fallback=False).to_json()
        refused = None
    except (RuleNotImplemented, TooLarge) as exc:
        report, refused = None, f"{type(exc).__name__}: {exc}"
    return {"cpu": time.process_time() - start, "report": report, "refused": refused}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--slowest", type=int, default=15)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    drawn = battles(args.battles, args.seed)
    solve(drawn[0])  # warm-up: imports, data files
    rows = [{"battle": i, **solve(b)} for i, b in enumerate(drawn)]
    cpus = sorted(r["cpu"] for r in rows)
    p99 = cpus[min(len(cpus) - 1, int(0.99 * len(cpus)))]
    large = [r for r in rows if r["refused"] and not r["refused"].startswith("RuleNot")]
    print(f"{len(rows)} battles (seed {args.seed}); too large for the exact engine: {len(large)}")
    print(
        f"CPU: median {1000 * statistics.median(cpus):.1f} ms, p99 {1000 * p99:.0f} ms, "
        f"max {1000 * cpus[-1]:.0f} ms, over 0.3 s: {sum(c > 0.3 for c in cpus)}, "
        f"in all {sum(cpus):.1f} s"
    )
    for row in sorted(rows, key=lambda r: -r["cpu"])[: args.slowest]:
        print(f"  no. {row['battle']}: {1000 * row['cpu']:.0f} ms {row['refused'] or ''}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(rows, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
