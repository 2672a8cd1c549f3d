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

Each sweep's time includes its local cluster's start and stop; the tables of every run must be
identical (checked). Prints one line per run and the load average before and after.

Run: ``.venv/bin/python -m benchmarks.sweep [--workers 2] [--points 2000]``.
"""

from __future__ import annotations

import argparse
import json
import os
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


def _odds_batch(scenarios: list[dict[str, Any]]) -> tuple[float, list[dict[str, Any]]]:
    lines = "".join(json.dumps(s) + "\n" for s in scenarios)
    command = [sys.executable, "-m", "spacecombat", "odds", "-", "--format", "jsonl"]
    started = time.perf_counter()
    done = subprocess.run(command, input=lines, capture_output=True, text=True, check=True)
    spent = time.perf_counter() - started
    return spent, [json.loads(line) for line in done.stdout.splitlines()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--points", type=int, default=2000)
    args = parser.parse_args()

    from distributed import Client

    from spacecombat.sweeps.run import connect, disconnect, sweep
    from spacecombat.sweeps.spec import load_spec

    checked = load_spec(spec(args.points))
    points = list(checked.points())
    n = len(points)
    print(f"{n} points, {args.workers} workers, load before: {_load()}", flush=True)

    scenarios = [checked.scenario_at(values) for values in points]
    spent, answers = _odds_batch(scenarios)
    print(f"odds -:                 {spent:7.2f} s  {n / spent:7.1f} points/s", flush=True)
    reference = [a["attacker_win"] for a in answers]

    tables = {}

    def timed(name: str, workers: int, cache: bool) -> float:
        started = time.perf_counter()
        client = connect(None, workers)
        try:
            tables[name] = sweep(checked, client, cache=cache)
        finally:
            disconnect(client)
        took = time.perf_counter() - started
        print(f"{name:23} {took:7.2f} s  {n / took:7.1f} points/s", flush=True)
        return took

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
            begun = time.perf_counter()
            tables["external"] = sweep(checked, client)
            external = time.perf_counter() - begun
            client.close()  # type: ignore[no-untyped-call]
            print(f"{'external scheduler:':23} {external:7.2f} s  {n / external:7.1f} points/s")
        finally:
            for process in reversed(started):
                process.terminate()
            for process in started:
                process.wait(timeout=30)

    first = tables["sweep, cache:"]
    for name, frame in tables.items():
        if not frame.equals(first):
            print(f"the table of {name!r} differs from the first", file=sys.stderr)
            return 1
    worst = max(abs(a - b) for a, b in zip(first["attacker_win"], reference, strict=True))
    print(f"largest difference from odds -: {worst:.1e}")
    print(
        f"ratios: cache/odds- {spent / cached:.2f}x, no cache/odds- {spent / uncached:.2f}x, "
        f"cache/no cache {uncached / cached:.2f}x, 2/1 workers {one / cached:.2f}x, "
        f"external/local {cached / external:.2f}x; load after: {_load()}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
