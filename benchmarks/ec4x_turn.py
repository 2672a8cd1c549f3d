"""Speed of one EC4X conflict phase (issue 11): a generated map of 100 systems and 8 houses
with 200 fleets, every fleet under orders (patrols in place and moves to a neighbouring
system), all houses at war, so fleets meet and fight in many systems.

The map comes from ``starmap.generate_map`` (seed 2026); fleets beyond the generator's two
per house are copies of each house's combat fleet placed on systems drawn across the map.
Orders are drawn from a SplitMix64 seeded with 7. Times ``conflict.turn`` (library, in
process, after a warm-up turn) and prints the median of ``--repeats`` runs, with the number of
battles fought; results go in docs/benchmarks.md with the machine and the date.

Run: ``.venv/bin/python benchmarks/ec4x_turn.py [--repeats R]``
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

from spacecombat.core.prng import SplitMix64
from spacecombat.rulesets.ec4x.turn.conflict import turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.rulesets.ec4x.turn.starmap import generate_map, lanes_of
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import OrdersFile, parse_orders

SYSTEMS = 100
HOUSES = 8
FLEETS = 200


def game() -> tuple[GameState, OrdersFile]:
    """The benchmark's state and orders."""
    base = generate_map(2026, SYSTEMS, HOUSES)
    data: dict[str, Any] = base.model_dump(mode="json", exclude_none=True)
    houses = sorted(data["houses"])
    data["diplomacy"] = [
        {"houses": [a, b], "status": "enemy"} for i, a in enumerate(houses) for b in houses[i + 1 :]
    ]
    lanes = lanes_of(base)
    fleets = data["fleets"]
    combat = {f["owner"]: f for f in fleets if f["id"].endswith("-1")}
    rng = SplitMix64(7)
    number = 0
    systems = sorted(lanes)
    while len(fleets) < FLEETS:
        house = houses[number % len(houses)]
        copy = dict(combat[house], id=f"{house}-x{number}", order=3)
        copy["location"] = systems[rng.below(len(systems))]
        fleets.append(copy)
        number += 1
    state = parse_game(data)
    orders: dict[str, list[dict[str, Any]]] = {h: [] for h in houses}
    for fleet in state.fleets:
        here = sorted(lanes[fleet.location])
        if rng.below(2) and here:
            target = here[rng.below(len(here))]
            orders[fleet.owner].append({"fleet": fleet.id, "order": {"code": 1, "target": target}})
        else:
            orders[fleet.owner].append({"fleet": fleet.id, "order": 3})
    given = {"game_id": state.game_id, "turn": state.turn, "orders": orders}
    return state, parse_orders(given, state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    state, orders = game()
    turn(state, orders)  # warm up
    times = []
    battles = 0
    for _ in range(args.repeats):
        start = time.perf_counter()
        result = turn(state, orders)
        times.append(time.perf_counter() - start)
        battles = len(result.battles)
    print(
        f"machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.system()}"
    )
    print(
        f"EC4X conflict phase: {SYSTEMS} systems, {HOUSES} houses, {len(state.fleets)} fleets, "
        f"{battles} battles; median {statistics.median(times):.3f} s "
        f"(runs: {', '.join(f'{t:.3f}' for t in times)})"
    )


if __name__ == "__main__":
    main()
