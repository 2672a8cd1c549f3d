"""What random TI4 battles as players enter them get from the engine (issue 14): solved exactly,
refused by name (and which rule), beyond the exact engine's budgets, or an internal error.

Each battle is drawn by ``benchmarks/factions.random_faction_battle`` (factions, flagships,
mechs, technologies, cards, leaders, purses, conditions, policies), then:

1. set up and solved exactly (``odds(..., fallback=False)``);
2. if solved, resolved once from a seed, and the log replayed (it must reproduce itself).

A ``RuleNotImplemented`` is a refusal by name: counted by the rule it names. Any other exception,
or a log that does not replay, is a failure: its scenario goes to the report file (``--report``)
so it can be run again by hand. The figures go in docs/benchmarks.md (Refusals).

Run: ``python -m benchmarks.refusals [--battles 1000] [--seed 0] [--report refusals.json]
[--shown 15]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.factions import random_faction_battle
from spacecombat import odds
from spacecombat.analysis.budget import TooLarge
from spacecombat.core.errors import RuleNotImplemented, SpacecombatError
from spacecombat.replayer import replay
from spacecombat.resolver import resolve


def rule_named(exc: RuleNotImplemented) -> str:
    """The rule a refusal names, without the field and the round it was met in (so refusals of
    one rule in different battles count together)."""
    return re.sub(r"\b(round|line) \d+", r"\1 N", exc.rule)


def check(battle: dict[str, Any], seed: int) -> tuple[str, str]:
    """What the engine made of one battle: (``solved`` | ``refused`` | ``too_large`` |
    ``failed``, detail)."""
    try:
        odds(battle, fallback=False)
    except RuleNotImplemented as exc:
        return "refused", rule_named(exc)
    except TooLarge as exc:
        return "too_large", str(exc)
    except SpacecombatError as exc:  # the generator drew a battle the checks refuse: a bug here
        return "failed", f"bad battle drawn: {exc}"
    except Exception:  # an internal error is what this hunts
        return "failed", traceback.format_exc(limit=-3)
    try:
        played = resolve(battle, seed=seed)
        report = replay(played.events)
    except RuleNotImplemented as exc:  # met only on a path the exact engine never weighed
        return "refused", rule_named(exc)
    except Exception:
        return "failed", traceback.format_exc(limit=-3)
    if not report.reproduces:
        return "failed", f"the log does not replay: {report.reason}"
    return "solved", ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report", default="refusals.json", help="failures go here (JSON)")
    parser.add_argument("--shown", type=int, default=15, help="rules refused listed, most first")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    failures: list[dict[str, Any]] = []
    started = time.perf_counter()
    for i in range(args.battles):
        battle = random_faction_battle(rng)
        outcome, detail = check(battle, seed=args.seed * 1_000_003 + i)
        counts[outcome] += 1
        if outcome == "refused":
            refused[detail] += 1
        elif outcome == "failed":
            failures.append({"battle": battle, "error": detail})
    took = time.perf_counter() - started
    print(
        f"{args.battles} random faction battles (seed {args.seed}), {took:.0f} s, "
        f"Python {platform.python_version()} on {platform.machine()}"
    )
    for outcome in ("solved", "refused", "too_large", "failed"):
        share = 100 * counts[outcome] / args.battles
        print(f"  {outcome:<10} {counts[outcome]:>6}  ({share:.1f}%)")
    if refused:
        print("refused by name, by rule:")
        for rule, count in refused.most_common(args.shown):
            print(f"  {count:>5}  {rule}")
        if len(refused) > args.shown:
            print(f"  ... and {len(refused) - args.shown} more rules")
    if failures:
        Path(args.report).write_text(json.dumps(failures, indent=1) + "\n", encoding="utf-8")
        print(f"{len(failures)} failures written to {args.report}; the first:")
        print(failures[0]["error"])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
