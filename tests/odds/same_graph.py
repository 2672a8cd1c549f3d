"""What the tests of the state graph's shortcuts share: two graphs found equal state by state
and edge by edge with exact weights, and a graph explored with a shortcut's switch off and on
(docs/architecture.md, odds engine §1 and §2: each shortcut has a switch, and off it must build
the same graph)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from spacecombat.analysis.graph import Explorer, StateGraph

#: a graph as a test explores it: the graph, its explorer, how many chance states split
Explored = tuple[StateGraph[Any], Explorer[Any], int]


def assert_same_graph(built: StateGraph[Any], walked: StateGraph[Any]) -> None:
    """The same states, the same start and the same edges (exact weights)."""
    assert built.states == walked.states
    assert built.start == walked.start
    assert built.edges == walked.edges


def switched_graphs(
    explore: Callable[[], Explored],
    module: ModuleType,
    switch: str,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Explored, Explored]:
    """The graph explored with ``module.switch`` off, then on, found the same; both as
    explored, off first."""
    with monkeypatch.context() as patched:
        patched.setattr(module, switch, False)
        off = explore()
    on = explore()
    assert_same_graph(on[0], off[0])
    return off, on
