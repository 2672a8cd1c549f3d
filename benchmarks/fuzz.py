"""The long fuzz run (issue 8): the fuzz suite's strategies (``tests/fuzz/strategies.py``) for
N cases (default 100,000), in-process through ``spacecombat.cli.main``, over several worker
processes.

Every case is judged as in the suite (``tests/fuzz/runner.py``: an allowed exit status and
never 70, no traceback, one short line on standard error when refused, at most 5 s and
500 MB). Reports cases per second, exit statuses by count (per family), the slowest cases,
peak memory (``resource.getrusage``, and the largest growth of one case), and every distinct
failure with the smallest input that caused it.

Run from the repository root: ``.venv/bin/python -m benchmarks.fuzz [--cases 100000]
[--workers W] [--seed 0] [--report failures.json]``. Figures go in docs/benchmarks.md (Fuzz)
with the machine and the date.
"""

from __future__ import annotations

import argparse
import heapq
import json
import multiprocessing
import os
import platform
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed

from tests.fuzz import strategies
from tests.fuzz.runner import Case, first_line, memory_cap, problems, run_case, signature

#: cases one Hypothesis run makes (its memory of what it tried grows with them)
CHUNK = 2_000
SLOWEST = 8


def _size(case: Case) -> int:
    return len(case.file or b"") + len(case.stdin or b"") + sum(len(a) for a in case.argv)


def _family_strategy(family: str) -> Any:
    return {
        "all": strategies.any_cases(),
        "scenario": strategies.scenario_cases(),
        "log": strategies.log_cases(),
        "batch": strategies.batch_cases(),
        "flags": strategies.flag_cases(),
    }[family]


def run_worker(index: int, cases: int, seed: int, family: str) -> dict[str, Any]:
    """Run ``cases`` cases (worker ``index``); their statistics and failures."""
    statuses: Counter[str] = Counter()
    slowest: list[tuple[float, str]] = []
    failures: dict[str, dict[str, Any]] = {}
    most_memory = 0.0
    seconds = 0.0
    done = 0
    strategy = _family_strategy(family)
    workdir = Path(tempfile.mkdtemp(prefix="spacecombat-fuzz-"))
    started = time.monotonic()

    def one(case: Case) -> None:
        nonlocal most_memory, seconds, done
        outcome = run_case(case, workdir)
        found = problems(case, outcome)
        done += 1
        seconds += outcome.seconds
        most_memory = max(most_memory, outcome.megabytes)
        statuses[f"{case.family} {outcome.status}"] += 1
        entry = (outcome.seconds, case.describe(200))
        if len(slowest) < SLOWEST:
            heapq.heappush(slowest, entry)
        elif entry > slowest[0]:
            heapq.heapreplace(slowest, entry)
        if found:
            key = signature(case, outcome, found)
            seen = failures.get(key)
            if seen is None or _size(case) < seen["size"]:
                failures[key] = {
                    "count": (seen or {}).get("count", 0),
                    "size": _size(case),
                    "problems": found,
                    "status": outcome.status,
                    "stderr": first_line(outcome.stderr)[:300],
                    "stdout": first_line(outcome.stdout)[:200],
                    "case": case.describe(1000),
                }
            failures[key]["count"] += 1
        if done % 1000 == 0:
            rate = done / (time.monotonic() - started)
            print(
                f"worker {index}: {done:,}/{cases:,} cases, {rate:.0f}/s, "
                f"{len(failures)} distinct failures",
                file=sys.stderr,
                flush=True,
            )

    def run_chunk(count: int, chunk_seed: int) -> None:
        """``count`` more cases from one Hypothesis run."""
        target = done + count

        @hypothesis_seed(chunk_seed)
        @settings(
            max_examples=count,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(strategy)
        def chunk_of_cases(case: Case) -> None:
            if done < target:
                one(case)

        chunk_of_cases()

    with memory_cap():
        chunk = 0
        while done < cases:
            before = done
            run_chunk(min(CHUNK, cases - done), seed * 1_000_003 + index * 10_007 + chunk)
            chunk += 1
            if done == before:  # the strategy has nothing new to give
                break
    shutil.rmtree(workdir, ignore_errors=True)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "cases": done,
        "seconds_in_cases": seconds,
        "statuses": dict(statuses),
        "slowest": sorted(slowest, reverse=True),
        "failures": failures,
        "case_memory_mb": most_memory,
        "peak_rss_mb": usage.ru_maxrss / 1024,
        "children_peak_rss_mb": children.ru_maxrss / 1024,
    }


def _merge(results: list[dict[str, Any]]) -> dict[str, Any]:
    statuses: Counter[str] = Counter()
    failures: dict[str, dict[str, Any]] = {}
    slowest: list[tuple[float, str]] = []
    for result in results:
        statuses.update(result["statuses"])
        slowest.extend((s, d) for s, d in result["slowest"])
        for key, failure in result["failures"].items():
            seen = failures.get(key)
            if seen is None:
                failures[key] = dict(failure)
            else:
                count = seen["count"] + failure["count"]
                if failure["size"] < seen["size"]:
                    failures[key] = dict(failure)
                failures[key]["count"] = count
    return {
        "cases": sum(r["cases"] for r in results),
        "seconds_in_cases": sum(r["seconds_in_cases"] for r in results),
        "statuses": dict(sorted(statuses.items())),
        "slowest": sorted(slowest, reverse=True)[:SLOWEST],
        "failures": failures,
        "case_memory_mb": max(r["case_memory_mb"] for r in results),
        "peak_rss_mb": max(r["peak_rss_mb"] for r in results),
        "children_peak_rss_mb": max(r["children_peak_rss_mb"] for r in results),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--family", choices=("all", "scenario", "log", "batch", "flags"), default="all"
    )
    parser.add_argument("--report", help="write the failures (with their inputs) as JSON here")
    args = parser.parse_args()
    workers = max(1, min(args.workers, args.cases))
    shares = [
        args.cases // workers + (1 if i < args.cases % workers else 0) for i in range(workers)
    ]
    print(
        f"{args.cases:,} cases ({args.family}), {workers} workers, seed {args.seed}; "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores",
        flush=True,
    )
    start = time.monotonic()
    if workers == 1:
        results = [run_worker(0, shares[0], args.seed, args.family)]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.starmap(
                run_worker, [(i, shares[i], args.seed, args.family) for i in range(workers)]
            )
    wall = time.monotonic() - start
    merged = _merge(results)
    cases = merged["cases"]
    print(f"\ncases: {cases:,} in {wall:.0f} s: {cases / wall:.0f} cases/s on {workers} workers")
    in_cases = merged["seconds_in_cases"]
    print(f"time in cases: {in_cases:.0f} s (mean {1000 * in_cases / max(cases, 1):.1f} ms)")
    print(
        f"peak memory: {merged['peak_rss_mb']:.0f} MB resident per worker (ru_maxrss), "
        f"{merged['children_peak_rss_mb']:.0f} MB in a Monte Carlo process; "
        f"largest growth in one case {merged['case_memory_mb']:.0f} MB"
    )
    print("\nexit statuses:")
    for key, count in merged["statuses"].items():
        print(f"  {key:<28} {count:>8,}")
    print("\nslowest cases:")
    for seconds, description in merged["slowest"]:
        print(f"  {seconds:6.2f} s  {description.splitlines()[0][:150]}")
    failures = merged["failures"]
    print(f"\ndistinct failures: {len(failures)}")
    for key, failure in sorted(failures.items(), key=lambda item: -item[1]["count"]):
        print(f"\n- {failure['count']:,} x {key}")
        print(f"  status {failure['status']}: {'; '.join(failure['problems'])}")
        print(f"  stderr: {failure['stderr']}")
        print("  " + failure["case"].replace("\n", "\n  "))
    if args.report:
        Path(args.report).write_text(json.dumps(merged, indent=2, default=str), encoding="utf-8")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
