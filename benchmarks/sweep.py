"""Sweep throughput (issue 26): a 2,000-point TI4 sweep against ``odds -`` on the same points.

The attacker is fixed (2 dreadnoughts, 2 cruisers, 2 destroyers, a carrier and 3 fighters);
the defender's cruisers (0-4), destroyers (0-4), dreadnoughts (1-4), technologies (4 sets) and
unit upgrades (5 sets) vary: 2,000 points, at most 12 units a side. Measured, one after
another in one run (the machine is shared: compare the ratios, not the figures across runs):

1. ``spacecombat odds -`` on the 2,000 scenarios as JSON Lines (its own pool, one process per
   core), from its start to its last line;
2. ``spacecombat.sweep`` on a local cluster of ``--workers`` processes, the cross-point cache
   on, then off; then on one worker (scaling);
3. the same sweep on an external cluster: a ``dask scheduler`` and ``--workers`` ``dask worker``
   processes started here on 127.0.0.1 (their start not counted).

Each local sweep's time is given with its cluster's start and stop, then without (the
cluster started); the tables of every run must agree to 1e-12 in every number and exactly in
every other column, and with ``odds -``'s answers to 1e-12 (checked; docs/rulings.md 26G-4).
Each run is measured in wall seconds and in CPU seconds of every process that worked for it
(this one, its children and theirs, reaped or, from /proc, alive): on a machine shared with
others the CPU figures are the ones to compare. Prints one line per run and the load average
before and after.

Run: ``.venv/bin/python -m benchmarks.sweep [--workers 2] [--points 2000] [--odds-from TREE]``
(``--odds-from``: also ``odds -`` of another commit's source tree, its ``src/`` first on
``PYTHONPATH``, and the sweep's ratios against it).

``--in-process``: instead, the points' work alone, in this one process on one core (the
sweep's ``solve_batch`` over all the points in their order, the cache on, then a fresh cache
off; ``--repeats`` times, alternated), in CPU seconds: what a point costs without a cluster's
processes, whose own CPU grows with the wall time a loaded machine gives them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ATTACKER = {"dreadnought": 2, "cruiser": 2, "destroyer": 2, "carrier": 1, "fighter": 3}
TECHNOLOGIES = [[], ["assault_cannon"], ["non_euclidean_shielding"], ["antimass_deflectors"]]
UPGRADES = [[], ["cruiser"], ["destroyer"], ["dreadnought"], ["cruiser", "destroyer"]]


def spec(points: int) -> dict[str, Any]:
    """The benchmark's spec; ``points`` below 2,000 cuts the cruisers and destroyers."""
    axes: dict[str, Any] = {
        "defender.units.cruiser": "0..4",
        "defender.units.destroyer": "0..4",
        "defender.units.dreadnought": "1..4",
        "defender.technologies": TECHNOLOGIES,
        "defender.upgrades": UPGRADES,
    }
    if points < 2000:
        axes["defender.units.cruiser"] = "0..1"
        axes["defender.units.destroyer"] = "0..1"
    return {
        "scenario": {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": {"units": dict(ATTACKER)},
            "defender": {"units": {}},
        },
        "axes": axes,
    }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _descendants() -> list[int]:
    """The live processes started by this one, and by them."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found: list[int] = []
    frontier = [os.getpid()]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent:
                found.append(pid)
                frontier.append(pid)
    return found


def _cpu() -> float:
    """CPU seconds of this process, of its children already reaped (and theirs), and of the
    live processes it started (and theirs: the clusters' workers)."""
    mine = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime
    tick = os.sysconf("SC_CLK_TCK")
    for pid in _descendants():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _odds_batch(
    scenarios: list[dict[str, Any]], source: str | None = None
) -> tuple[float, float, list[dict[str, Any]]]:
    """``spacecombat odds -`` on the scenarios: this tree's, or (``source``) the one whose
    ``src`` folder is put first on ``PYTHONPATH`` (another commit's, unpacked)."""
    lines = "".join(json.dumps(s) + "\n" for s in scenarios)
    command = [sys.executable, "-m", "spacecombat", "odds", "-", "--format", "jsonl"]
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(Path(source) / "src")
    started, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(command, input=lines, capture_output=True, text=True, check=True, env=env)
    spent, cpu = time.perf_counter() - started, _cpu() - cpu
    return spent, cpu, [json.loads(line) for line in done.stdout.splitlines()]


def _line(name: str, n: int, wall: float, cpu: float) -> str:
    return (
        f"{name:24} {wall:7.2f} s {n / wall:7.1f} points/s | {cpu:7.2f} CPU s "
        f"{n / cpu:7.1f} points/CPU s"
    )


def in_process(points: int, repeats: int) -> int:
    """The points' work in this process (``--in-process``): CPU seconds, median of the runs."""
    import statistics

    from spacecombat.analysis import chain_cache
    from spacecombat.sweeps import points as solving
    from spacecombat.sweeps.spec import load_spec, point_seed

    checked = load_spec(spec(points))
    batch = [
        (n, checked.scenario_at(values), point_seed(checked.seed, values))
        for n, values in enumerate(checked.points())
    ]
    options = checked.options()
    n = len(batch)
    print(f"{n} points in process, load before: {_load()}", flush=True)
    spent: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(repeats):
        for cache in (True, False):
            solving._CACHE = chain_cache.PartsCache()  # a worker's cache, fresh
            started = time.process_time()
            solving.solve_batch(batch, options, cache)
            spent[cache].append(time.process_time() - started)
    for cache in (True, False):
        cpu = statistics.median(spent[cache])
        runs = ", ".join(f"{x:.2f}" for x in spent[cache])
        print(
            f"{'cache' if cache else 'no cache'}: median {cpu:.2f} CPU s ({runs}), "
            f"{1000 * cpu / n:.2f} ms a point, {n / cpu:.1f} points/CPU s",
            flush=True,
        )
    print(f"load after: {_load()}")
    return 0


#: how far a sweep's numbers may be from ``odds -``'s and from each other (docs/rulings.md 26G-4)
AGREE = 1e-12


def _tables_apart(frame: Any, first: Any) -> str | None:
    """Where ``frame`` differs from ``first``: a column or row that is not the other's, a
    number more than ``AGREE`` away, any other value not equal; None if they agree."""
    if list(frame.columns) != list(first.columns) or len(frame) != len(first):
        return "columns or rows"
    for name in first.columns:
        for k, (a, b) in enumerate(zip(frame[name], first[name], strict=True)):
            numbers = isinstance(a, float | int) and isinstance(b, float | int)
            if numbers and not isinstance(a, bool) and not isinstance(b, bool):
                same = a == b or (a != a and b != b)  # NaN (no value) equals NaN
                if not (same or abs(float(a) - float(b)) <= AGREE):
                    return f"{name} at row {k}: {a} and {b}"
            elif not (a == b or (a != a and b != b)):  # NaN (no value) equals NaN
                return f"{name} at row {k}: {a!r} and {b!r}"
    return None


def _largest_difference(frame: Any, answers: list[dict[str, Any]]) -> float:
    """The largest difference between the sweep's table and ``odds -``'s answers, over every
    number the table has of them (chances, holds, expected losses, expected rounds)."""
    worst = 0.0
    for row, answer in zip(frame.to_dict("records"), answers, strict=True):
        theirs = {name: answer[name] for name in ("attacker_win", "defender_win", "draw")}
        for field in ("holds", "expected_losses"):
            for who, value in (answer.get(field) or {}).items():
                theirs[f"{field}_{who}"] = value
        theirs["expected_rounds"] = answer["rounds"]["expected"]
        for name, value in theirs.items():
            worst = max(worst, abs(float(row[name]) - float(value)))
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--points", type=int, default=2000)
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--odds-from",
        action="append",
        default=[],
        metavar="TREE",
        help="also time odds - of another source tree (its src/ first on PYTHONPATH: "
        "another commit's, e.g. git archive COMMIT src | tar -x -C TREE)",
    )
    args = parser.parse_args()
    if args.in_process:
        return in_process(args.points, args.repeats)

    from distributed import Client

    from spacecombat.sweeps.run import connect, disconnect, sweep
    from spacecombat.sweeps.spec import load_spec

    checked = load_spec(spec(args.points))
    points = list(checked.points())
    n = len(points)
    print(f"{n} points, {args.workers} workers, load before: {_load()}", flush=True)

    scenarios = [checked.scenario_at(values) for values in points]
    spent, spent_cpu, answers = _odds_batch(scenarios)
    print(_line("odds -:", n, spent, spent_cpu), flush=True)
    others: dict[str, tuple[float, float]] = {}
    for tree in args.odds_from:
        wall, cpu_s, _ = _odds_batch(scenarios, tree)
        others[tree] = (wall, cpu_s)
        print(_line(f"odds - of {Path(tree).name}:", n, wall, cpu_s), flush=True)

    tables = {}
    started_runs: dict[str, tuple[float, float]] = {}

    def timed(name: str, workers: int, cache: bool) -> tuple[float, float]:
        started, cpu = time.perf_counter(), _cpu()
        client = connect(None, workers)
        client.wait_for_workers(workers)
        begun, cpu_begun = time.perf_counter(), _cpu()
        try:
            tables[name] = sweep(checked, client, cache=cache)
            alone, alone_cpu = time.perf_counter() - begun, _cpu() - cpu_begun
        finally:
            disconnect(client)
        took, cpu = time.perf_counter() - started, _cpu() - cpu
        print(_line(name, n, took, cpu), flush=True)
        print(_line("  (cluster started)", n, alone, alone_cpu), flush=True)
        started_runs[name] = (alone, alone_cpu)
        return took, cpu

    cached = timed("sweep, cache:", args.workers, True)
    uncached = timed("sweep, no cache:", args.workers, False)
    one = timed("sweep, 1 worker, cache:", 1, True)

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        bin_dir = Path(sys.executable).parent
        started = [
            subprocess.Popen(
                [
                    str(bin_dir / "dask"),
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "--no-dashboard",
                ],
                cwd=scratch,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        ]
        try:
            for _ in range(args.workers):
                started.append(
                    subprocess.Popen(
                        [
                            str(bin_dir / "dask"),
                            "worker",
                            address,
                            "--nthreads",
                            "1",
                            "--no-dashboard",
                            "--host",
                            "127.0.0.1",
                        ],
                        cwd=scratch,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
            client = Client(address, timeout=30)  # type: ignore[no-untyped-call]
            client.wait_for_workers(args.workers, timeout=60)
            begun, cpu = time.perf_counter(), _cpu()
            tables["external"] = sweep(checked, client)
            external, external_cpu = time.perf_counter() - begun, _cpu() - cpu
            client.close()  # type: ignore[no-untyped-call]
            print(_line("external scheduler:", n, external, external_cpu), flush=True)
        finally:
            for process in reversed(started):
                process.terminate()
            for process in started:
                process.wait(timeout=30)

    first = tables["sweep, cache:"]
    for name, frame in tables.items():
        apart = _tables_apart(frame, first)
        if apart is not None:
            print(f"the table of {name!r} differs from the first: {apart}", file=sys.stderr)
            return 1
    worst = _largest_difference(first, answers)
    print(f"largest difference from odds - (every column of the table): {worst:.1e}")
    if worst > AGREE:
        print(f"the sweep's table is more than {AGREE} from odds -", file=sys.stderr)
        return 1
    ready = started_runs["sweep, cache:"]
    for what, k in (("wall", 0), ("CPU", 1)):
        base = (spent, spent_cpu)[k]
        print(
            f"ratios ({what}): cache/odds- {base / cached[k]:.2f}x "
            f"(cluster started {base / ready[k]:.2f}x), "
            f"no cache/odds- {base / uncached[k]:.2f}x, cache/no cache "
            f"{uncached[k] / cached[k]:.2f}x, 2/1 workers {one[k] / cached[k]:.2f}x, "
            f"external/local {cached[k] / (external, external_cpu)[k]:.2f}x"
        )
        for tree, figures in others.items():
            print(
                f"  against odds - of {Path(tree).name} ({what}): cache "
                f"{figures[k] / cached[k]:.2f}x (cluster started {figures[k] / ready[k]:.2f}x)"
            )
    print(f"load after: {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
