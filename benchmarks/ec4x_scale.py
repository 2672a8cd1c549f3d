"""Speed of one EC4X conflict phase against the map's size (issue 23 "Scale"), up to the
documented limits (docs/limits.md: 2,000 systems, 5,000 fleets).

Each map is made by the map generator's own steps (``starmap._cells``, ``_homeworlds``,
``_lanes``, ``_state``: the public ``generate_map`` stops at its own smaller cap), with 8
houses all at war. Each house also holds a colony on every 10th system drawn, and fleets
(copies of each house's starting combat fleet, some with a troop transport) stand on systems
drawn across the map. Every fleet is under orders, drawn from a SplitMix64 seeded with 7:
a move to a neighbour, a move to a system drawn anywhere on the map (routes of many turns),
seek home (02), patrol in place (03), or a rendezvous at a neighbour (14). Times
``conflict.turn`` (library, in process, after a warm-up turn) and prints, per size, the median
of ``--repeats`` runs, the battles fought, the peak memory of the process and the size of the
next state's file; results go in docs/benchmarks.md with the machine and the date.

Run: ``.venv/bin/python benchmarks/ec4x_scale.py [--sizes 250,500,1000,2000] [--repeats R]``
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import statistics
import time
from typing import Any

from spacecombat.core.prng import SplitMix64
from spacecombat.rulesets.ec4x.turn import starmap
from spacecombat.rulesets.ec4x.turn.conflict import turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.rulesets.ec4x.turn.starmap import lanes_of
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import OrdersFile, parse_orders

HOUSES = 8
#: systems -> fleets: the issue's sizes, the last one the documented limits
SIZES = {250: 250, 500: 500, 1000: 1000, 2000: 5000}


def big_map(seed: int, systems: int, houses: int) -> dict[str, Any]:
    """A generated map of any size (the generator's steps, without ``generate_map``'s cap)."""
    rng = SplitMix64(seed)
    for _ in range(starmap.ATTEMPTS):
        cells = starmap._cells(rng, systems)
        homes = starmap._homeworlds(rng, cells, houses)
        if homes is None:
            continue
        lanes = starmap._lanes(rng, cells, homes)
        if lanes is not None:
            return starmap._state(rng, seed, cells, homes, lanes)
    raise ValueError(f"no map of {systems} systems for {houses} houses from seed {seed}")


def game(systems: int, fleets: int, seed: int = 2026) -> tuple[GameState, OrdersFile]:
    """The benchmark's state and orders for one size."""
    data = big_map(seed, systems, HOUSES)
    houses = sorted(data["houses"])
    data["diplomacy"] = [
        {"houses": [a, b], "status": "enemy"} for i, a in enumerate(houses) for b in houses[i + 1 :]
    ]
    rng = SplitMix64(7)
    ids = sorted(s["id"] for s in data["systems"])
    for n, system in enumerate(data["systems"]):
        planet = system["planets"][0]
        if "colony" not in planet and rng.below(10) == 0:
            planet["colony"] = {"owner": houses[n % len(houses)], "pu": 50, "iu": 10}
    listed = data["fleets"]
    combat = {f["owner"]: f for f in listed if f["id"].endswith("-1")}
    number = 0
    while len(listed) < fleets:
        house = houses[number % len(houses)]
        copy = dict(combat[house], id=f"{house}-x{number}", order=0)
        copy["location"] = ids[rng.below(len(ids))]
        if rng.below(4) == 0:
            copy["spacelift"] = {"TT": 1}
        listed.append(copy)
        number += 1
    state = parse_game(data)
    lanes = lanes_of(state)
    orders: dict[str, list[dict[str, Any]]] = {h: [] for h in houses}
    for fleet in state.fleets:
        here = sorted(lanes[fleet.location])
        kind = rng.below(5)
        order: Any
        if kind == 0 and here:
            order = {"code": 1, "target": here[rng.below(len(here))]}
        elif kind == 1:
            order = {"code": 1, "target": ids[rng.below(len(ids))]}
        elif kind == 2:
            order = 2
        elif kind == 3 and here:
            order = {"code": 14, "target": here[rng.below(len(here))]}
        else:
            order = 3
        orders[fleet.owner].append({"fleet": fleet.id, "order": order})
    given = {"game_id": state.game_id, "turn": state.turn, "orders": orders}
    return state, parse_orders(given, state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.system()}"
    )
    for systems in (int(s) for s in args.sizes.split(",")):
        fleets = SIZES.get(systems, systems)
        state, orders = game(systems, fleets)
        turn(state, orders)  # warm up
        times = []
        result = None
        for _ in range(args.repeats):
            start = time.process_time()
            result = turn(state, orders)
            times.append(time.process_time() - start)
        assert result is not None
        size = len(json.dumps(result.state.to_json(), indent=2).encode())
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{systems} systems, {len(state.fleets)} fleets, {len(result.battles)} battles: "
            f"median {statistics.median(times):.2f} s CPU "
            f"(runs: {', '.join(f'{t:.2f}' for t in times)}); peak memory {peak:.0f} MB; "
            f"next state {size / 1e6:.2f} MB",
            flush=True,
        )


if __name__ == "__main__":
    main()
