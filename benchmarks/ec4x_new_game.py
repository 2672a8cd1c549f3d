"""Speed of ``spacecombat ec4x new-game`` (issue 23): the map generator
(``starmap.generate_map``) against map size, up to the game state's limits (2,000 systems,
5,000 fleets), and the game master's picture of the map (``picture.render``) of each.

Prints, for each size, the median of ``--repeats`` runs (in process, after a warm-up) of
generating the map with 8 houses (and 625 fleets a house at the limit), of writing its JSON
(``cli.turn.dumps``) and of drawing it; the size of the JSON. Results go in docs/benchmarks.md
with the machine and the date.

Run: ``.venv/bin/python -m benchmarks.ec4x_new_game [--repeats R]``
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable
from functools import partial

from spacecombat.cli.turn import dumps
from spacecombat.rulesets.ec4x.turn.picture import master_view, render
from spacecombat.rulesets.ec4x.turn.starmap import generate_map

SIZES = ((100, 2), (500, 2), (1000, 2), (2000, 2), (2000, 625))
HOUSES = 8


def median_time(work: Callable[[], object], repeats: int) -> float:
    work()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("systems  fleets  generate  json  picture  json bytes")
    for systems, fleets in SIZES:
        state = generate_map(1, systems, HOUSES, fleets=fleets, diplomacy="enemy")
        again = partial(generate_map, 1, systems, HOUSES, fleets=fleets, diplomacy="enemy")
        gen = median_time(again, args.repeats)
        text = dumps(state.to_json())
        write = median_time(partial(dumps, state.to_json()), args.repeats)
        view = master_view(state, 1, {}, {}, [])
        draw = median_time(partial(render, view), args.repeats)
        print(
            f"{systems:7,} {len(state.fleets):7,} {gen:8.3f}s {write:5.3f}s {draw:6.3f}s "
            f"{len(text.encode()):11,}"
        )


if __name__ == "__main__":
    main()
