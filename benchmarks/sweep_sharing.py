"""How much of the joint solution of the rounds the points of benchmarks/sweep.py could share
(issue 26, docs/rulings.md 26G-6): a count, not a timing.

A shared table of the joint solution (for each setup, a value per pair of the two players'
states, a point being its entries' masses times their values) saves a point's solution only
where the point's entries into the rounds (the pairs of units the rounds begin from, after
the space cannon and the anti-fighter barrage) are pairs some other point of the same setup
has already solved. This probe solves the benchmark's points in their order, one cache as a
worker's, and records for each point its entry pairs and every pair of its two chains
(``product.solve`` is wrapped here, in this script only, to see its arguments). It prints:

- the entry pairs that are pairs of another point's chains of the same setup (the cache's
  key, ``chain_cache.battle_key``), in any order: the most a table could answer whole;
- the pairs of each point's chains met for the first time in the spec's order: what a table
  filled point by point would still have to solve.

Run: ``.venv/bin/python -m benchmarks.sweep_sharing [--points 2000]``.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Hashable
from typing import Any

from benchmarks.sweep import spec
from spacecombat.analysis import chain_cache, product
from spacecombat.sweeps import points as solving
from spacecombat.sweeps.spec import load_spec, point_seed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=2000)
    args = parser.parse_args()
    checked = load_spec(spec(args.points))
    options = checked.options()
    solving._CACHE = chain_cache.PartsCache()
    seen: list[tuple[str, list[tuple[Hashable, Hashable]], set[tuple[Hashable, Hashable]]]] = []
    solve = product.solve
    current: dict[str, str] = {}

    def recorded(attacker: Any, defender: Any, entries: Any, starts: Any, **kw: Any) -> Any:
        pairs = {(a, d) for a in attacker.units for d in defender.units}
        entered = [(attacker.units[i], defender.units[j]) for i, j, _, _ in entries]
        seen.append((current["key"], entered, pairs))
        return solve(attacker, defender, entries, starts, **kw)

    product.solve = recorded
    try:
        for n, values in enumerate(checked.points()):
            scenario = checked.scenario_at(values)
            current["key"] = chain_cache.battle_key(scenario)
            solving.solve_batch([(n, scenario, point_seed(checked.seed, values))], options)
    finally:
        product.solve = solve
    groups: dict[str, list[int]] = defaultdict(list)
    for k, (key, _, _) in enumerate(seen):
        groups[key].append(k)
    entered = answered = fresh = pairs = 0
    for members in groups.values():
        first: set[tuple[Hashable, Hashable]] = set()
        for k in members:
            _, entries, chain_pairs = seen[k]
            others = set().union(*(seen[m][2] for m in members if m != k))
            entered += len(entries)
            answered += sum(1 for pair in entries if pair in others)
            fresh += len(chain_pairs - first)
            pairs += len(chain_pairs)
            first |= chain_pairs
    print(f"{len(seen)} points solved in rounds, {len(groups)} setups")
    print(f"entry pairs that are pairs of another point's chains: {answered} of {entered}")
    print(
        f"pairs of the points' chains met for the first time in the spec's order: {fresh} of "
        f"{pairs} ({100 * fresh / max(1, pairs):.1f}%)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
