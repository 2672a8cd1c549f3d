"""A probe of the server's answer times for the load benchmark (``benchmarks/load.py``): a
process of its own that sends one small odds request every ``--interval`` seconds on one
blocking keep-alive connection and prints, as JSON, each answer's status and latency.

The load benchmark's 200 clients share one event loop, and a latency they measure includes
how late that loop gets to the answer; the probe has no event loop (it blocks in ``recv``,
woken by the kernel when the answer arrives), so its latencies are the server's and the
machine's alone. It runs beside the clients, adding one request every 50 ms to their load.

Run: ``python -m benchmarks.probe PORT SECONDS [--interval S]`` (normally started by
``benchmarks.load``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import time

#: the probe's request: a small battle, answered from the store after its first time, or 503
BODY = json.dumps(
    {
        "scenario": {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": {"units": "2 dreadnought"},
            "defender": {"units": "3 cruiser"},
        }
    }
).encode()


def probe(port: int, seconds: float, interval: float) -> list[tuple[int, float]]:
    """(status, seconds) of each exchange; status 0: the exchange failed."""
    found: list[tuple[int, float]] = []
    connection: http.client.HTTPConnection | None = None
    end = time.perf_counter() + seconds
    headers = {"content-type": "application/json"}
    while time.perf_counter() < end:
        if connection is None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        start = time.perf_counter()
        try:
            connection.request("POST", "/api/v1/odds", BODY, headers)
            answer = connection.getresponse()
            answer.read()
            found.append((answer.status, time.perf_counter() - start))
        except (OSError, http.client.HTTPException):
            found.append((0, time.perf_counter() - start))
            connection.close()
            connection = None
        time.sleep(interval)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("port", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("--interval", type=float, default=0.05)
    args = parser.parse_args()
    json.dump(probe(args.port, args.seconds, args.interval), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
