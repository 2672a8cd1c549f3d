"""The strongly connected components of the chance states, each state's targets listed once
(issue 24, 24W-3; analysis/solve.py ``components``; docs/architecture.md, "The odds engine", 2.).

The iterative walk of Tarjan's algorithm resumes a state after each of its targets is walked;
it listed the state's targets afresh at each resumption (quadratic in a state's edges: a chance
state with hundreds of outcomes). They are now listed once, when the state is first met. These
tests check that the components and their order are those of Tarjan's algorithm written
recursively (the same walk: targets in edge order, battle ends skipped), on random graphs with
cycles and on a battle's graph.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from fractions import Fraction

from spacecombat import rulesets
from spacecombat.analysis.graph import Edge, Explorer, Terminal
from spacecombat.analysis.solve import components
from spacecombat.rulesets import parse_scenario

from .test_graph_splits_whole import NO_116


def _recursive(edges: Sequence[Sequence[Edge]]) -> list[list[int]]:
    """Tarjan's algorithm, recursive: components sources first."""
    order: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    found: list[list[int]] = []

    def visit(node: int) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for edge in edges[node]:
            nxt = edge.target
            if not isinstance(nxt, int):
                continue
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            found.append(component)

    for root in range(len(edges)):
        if root not in order:
            visit(root)
    found.reverse()
    return found


def _random_graph(rng: random.Random, count: int) -> list[list[Edge]]:
    end = Terminal(("end",), {})
    edges: list[list[Edge]] = []
    for node in range(count):
        out = []
        for _ in range(rng.randint(0, 6)):
            # mostly forward, some back (cycles), some to a battle end, repeats allowed
            roll = rng.random()
            if roll < 0.15:
                target: int | Terminal = end
            elif roll < 0.35:
                target = rng.randrange(count)
            else:
                target = rng.randrange(node, count)
            out.append(Edge(target, Fraction(1, 2), 0))
        edges.append(out)
    return edges


def test_random_graphs() -> None:
    rng = random.Random(24)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        for _ in range(300):
            edges = _random_graph(rng, rng.randint(1, 60))
            assert components(edges) == _recursive(edges)
    finally:
        sys.setrecursionlimit(old)


def test_a_battle_graph() -> None:
    battle = rulesets.battle(parse_scenario(NO_116))
    explorer = Explorer(battle, battle.stock_policies(), exact=True, joins=True)
    graph = explorer.build()
    assert len(graph.edges) > 50
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10 * len(graph.edges)))
    try:
        assert components(graph.edges) == _recursive(graph.edges)
    finally:
        sys.setrecursionlimit(old)
